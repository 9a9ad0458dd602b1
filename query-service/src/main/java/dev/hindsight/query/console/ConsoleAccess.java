package dev.hindsight.query.console;

import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Every console page goes through here: a visitor who is not signed in is sent to the sign-in page (and back to the
 * page asked for afterwards), one whose key lacks the page's scope gets a 403 page, and a page whose content is
 * missing or whose query is wrong gets a 404 or 400 page, never JSON.
 */
@ApplicationScoped
public class ConsoleAccess {

    private static final Logger LOG = Logger.getLogger(ConsoleAccess.class);

    private final CurrentIdentityAssociation identities;

    public ConsoleAccess(CurrentIdentityAssociation identities) {
        this.identities = identities;
    }

    /** Renders {@code page} for a viewer whose key has {@code scope}. */
    public Uni<Response> page(UriInfo uri, String scope, Function<Viewer, Uni<Response>> page) {
        return identities.getDeferredIdentity().chain(identity -> {
            if (identity.isAnonymous()) {
                return Uni.createFrom().item(signInFirst(uri));
            }
            Viewer viewer = viewer(identity);
            if (!identity.hasRole(scope)) {
                return Uni.createFrom().item(html(403, Templates.error(new Layout(viewer, "Forbidden"),
                        "This page needs an API key with the " + scope + " scope.", List.of()).render()));
            }
            // Deferred: a page that refuses its parameters by throwing gets its error page too.
            return Uni.createFrom().deferred(() -> page.apply(viewer)).onFailure()
                    .recoverWithItem(e -> e instanceof ProblemException problem
                            ? problemPage(viewer, problem.problem()) : unexpected(viewer, uri, e));
        });
    }

    /** The viewer, for a stream: one who is not signed in or lacks {@code scope} is refused (401, 403). */
    public Uni<Viewer> viewer(String scope) {
        return identities.getDeferredIdentity().map(identity -> {
            if (identity.isAnonymous()) {
                throw new UnauthorizedException("Sign in to the console first");
            }
            if (!identity.hasRole(scope)) {
                throw new ForbiddenException("This stream needs the " + scope + " scope");
            }
            return viewer(identity);
        });
    }

    static Viewer viewer(SecurityIdentity identity) {
        return new Viewer((TenantId) identity.getAttribute(TenantContext.TENANT_ATTRIBUTE),
                identity.getPrincipal().getName(), identity.getRoles());
    }

    private static Response problemPage(Viewer viewer, Problem problem) {
        String title = problem.status() == 404 ? "Not found" : problem.title();
        return html(problem.status(), Templates.error(new Layout(viewer, title), problem.detail(),
                problem.errors() == null ? List.of() : problem.errors()).render());
    }

    private static Response unexpected(Viewer viewer, UriInfo uri, Throwable e) {
        String incident = UUID.randomUUID().toString();
        LOG.errorf(Redactor.operational(e), "Unexpected failure on %s (incident %s)", uri.getPath(), incident);
        return html(500, Templates.error(new Layout(viewer, "Something went wrong"),
                "This page could not be shown; quote incident " + incident + " when reporting it.", List.of())
                .render());
    }

    /** Where a visitor who is not signed in goes: the sign-in page, which brings them back here. */
    static Response signInFirst(UriInfo uri) {
        String back = uri.getRequestUri().getRawPath()
                + (uri.getRequestUri().getRawQuery() == null ? "" : "?" + uri.getRequestUri().getRawQuery());
        return Response.seeOther(URI.create(ConsolePaths.SIGN_IN + "?next="
                + URLEncoder.encode(back, StandardCharsets.UTF_8))).build();
    }

    /** A form field or query parameter as given: empty means not given. */
    public static String given(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** The error page's template, for the console's own pages that are not behind {@link #page}. */
    static TemplateInstance errorPage(Layout layout, String message, List<Problem.FieldError> errors) {
        return Templates.error(layout, message, errors);
    }

    /** An HTML page; console pages are per viewer and never stored by caches on the way. */
    public static Response html(int status, String body) {
        return Response.status(status).type("text/html;charset=UTF-8").header("Cache-Control", "no-store")
                .entity(body).build();
    }

    /** This page's templates (src/main/resources/templates/console); every expression is checked at build time. */
    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static final class Templates {

        static native TemplateInstance error(Layout layout, String message, List<Problem.FieldError> errors);

        private Templates() {
        }
    }
}
