package dev.hindsight.query.console;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The console's door: {@code /ui/sign-in} exchanges an API key for a sign-in cookie, {@code /ui/sign-out} ends it.
 * The key goes in a form field, never in a URL.
 */
@Path("/ui")
@PermitAll
@Produces(MediaType.TEXT_HTML)
class SignInResource {

    private final ConsoleSignIn signIn;
    private final CurrentIdentityAssociation identities;

    public SignInResource(ConsoleSignIn signIn, CurrentIdentityAssociation identities) {
        this.signIn = signIn;
        this.identities = identities;
    }

    @GET
    @Path("sign-in")
    @Operation(hidden = true)
    public Uni<Response> form(@QueryParam("next") String next) {
        // Someone already signed in goes on to where they were going.
        return identities.getDeferredIdentity().map(identity -> identity.isAnonymous()
                ? ConsoleAccess.html(200, Templates.signIn(new Layout(null, "Sign in"), safeNext(next), null).render())
                : Response.seeOther(URI.create(safeNext(next))).build());
    }

    @POST
    @Path("sign-in")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Response signIn(@FormParam("api_key") String apiKey, @FormParam("next") String next,
            @Context HttpServerRequest request) {
        if (!sameOrigin(request)) {
            return ConsoleAccess.html(403, ConsoleAccess.errorPage(new Layout(null, "Forbidden"),
                    "A sign-in must come from this console's own page.", List.of()).render());
        }
        String source = request.remoteAddress() == null ? "unknown" : request.remoteAddress().host();
        ConsoleSignIn.Outcome outcome = signIn.signIn(apiKey, source, Instant.now());
        String back = safeNext(next);
        if (outcome instanceof ConsoleSignIn.Outcome.SignedIn signedIn) {
            return Response.seeOther(URI.create(back))
                    .cookie(cookie(signedIn.cookie(), (int) signIn.lifetime().toSeconds(), secure(request)))
                    .build();
        }
        if (outcome instanceof ConsoleSignIn.Outcome.Throttled throttled) {
            return Response.fromResponse(ConsoleAccess.html(429, Templates.signIn(new Layout(null, "Sign in"), back,
                    "Too many failed sign-ins from this address: try again in " + throttled.seconds() + " s.")
                    .render())).header("Retry-After", throttled.seconds()).build();
        }
        return ConsoleAccess.html(401, Templates.signIn(new Layout(null, "Sign in"), back,
                ((ConsoleSignIn.Outcome.Refused) outcome).reason()).render());
    }

    @POST
    @Path("sign-out")
    @Operation(hidden = true)
    public Response signOut(@Context HttpServerRequest request) {
        return Response.seeOther(URI.create(ConsolePaths.SIGN_IN)).cookie(cookie("", 0, secure(request))).build();
    }

    private static NewCookie cookie(String value, int maxAge, boolean secure) {
        return new NewCookie.Builder(ConsoleCookie.NAME).value(value).path(ConsolePaths.UI).maxAge(maxAge)
                .httpOnly(true).secure(secure).sameSite(NewCookie.SameSite.STRICT).build();
    }

    /**
     * The host (and port, when the request names one) this request was sent to: HTTP/1.1's Host header, or HTTP/2's
     * :authority, which has no Host header beside it.
     */
    private static String authority(HttpServerRequest request) {
        HostAndPort authority = request.authority();
        if (authority == null) {
            return null;
        }
        return authority.port() < 0 ? authority.host() : authority.host() + ":" + authority.port();
    }

    /** Over HTTPS (directly or behind a proxy that says so) the cookie is Secure; over plain HTTP it cannot be. */
    private static boolean secure(HttpServerRequest request) {
        return "https".equalsIgnoreCase(request.scheme())
                || "https".equalsIgnoreCase(request.getHeader("X-Forwarded-Proto"));
    }

    /**
     * A form posted from another site is refused: browsers send Origin with every cross-site POST, so a page
     * elsewhere cannot sign a visitor in with a key of its choosing.
     */
    private static boolean sameOrigin(HttpServerRequest request) {
        String origin = request.getHeader("Origin");
        if (origin == null) {
            return true;
        }
        try {
            URI uri = URI.create(origin);
            String forwarded = request.getHeader("X-Forwarded-Host");
            String expected = forwarded != null ? forwarded : authority(request);
            String authority = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            return authority.equalsIgnoreCase(expected);
        } catch (IllegalArgumentException notAUri) {
            return false;
        }
    }

    /** Only a console path of this site: never another site, so the form cannot be made to send anyone away. */
    static String safeNext(String next) {
        if (next == null || !next.startsWith(ConsolePaths.UI + "/") || next.startsWith(ConsolePaths.SIGN_IN)
                || next.contains("\\") || next.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return ConsolePaths.SESSIONS;
        }
        try {
            URI uri = new URI(next);
            // Relative to this site only: no scheme, no host, and a path that stays under /ui/ once resolved.
            return uri.getScheme() == null && uri.getRawAuthority() == null
                    && uri.normalize().getRawPath().startsWith(ConsolePaths.UI + "/") ? next : ConsolePaths.SESSIONS;
        } catch (URISyntaxException notAUri) {
            return ConsolePaths.SESSIONS;
        }
    }

    /** This page's templates (src/main/resources/templates/console); every expression is checked at build time. */
    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static final class Templates {

        static native TemplateInstance signIn(Layout layout, String next, String message);

        private Templates() {
        }
    }
}
