package dev.hindsight.ingest.keys;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hindsight.events.keys.ApiKeyIssued;
import dev.hindsight.events.keys.ApiKeyRevoked;
import dev.hindsight.events.keys.KeyEvent;
import dev.hindsight.ingest.publish.EventLog;
import dev.hindsight.ingest.request.JsonBody;
import dev.hindsight.platform.Hashing;
import dev.hindsight.platform.auth.KeyRing;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.kafka.EventHeaders;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * API keys at run time (docs/design.md, "API keys"): a tenant's administrators issue, list, rotate and revoke the
 * tenant's keys without a restart. Every change is an event on {@code hindsight.keys.v1}, which every replica of every
 * service follows; this replica applies it at once, the others within a second. A new key's secret is shown once, in
 * the answer that issued it; only its SHA-256 is kept anywhere. Keys in configuration (the bootstrap keys) are not
 * managed here.
 */
@Path("/v1/admin/api-keys")
@Tag(name = "API keys")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.ADMIN)
class KeyResource {

    private static final Set<String> SCOPES = Set.of(Scopes.INGEST, Scopes.READ, Scopes.ADMIN, Scopes.ERASE);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Body of an issue: what the key may do, what it is for, until when. */
    public record IssueKey(
            @NotEmpty @Size(max = 3) List<@NotNull @Pattern(regexp = "^(ingest|read|admin)$",
                    message = "must be ingest, read or admin") String> scopes,
            @Size(max = 128) String name,
            Instant expiresAt) implements JsonBody {
    }

    /** Body of a rotation: how long the old key keeps working (default: it stops at once). */
    public record RotateKey(@PositiveOrZero Long graceSeconds) implements JsonBody {
    }

    /** A key as listed: never its secret nor its hash. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record KeyView(String keyId, @Schema(implementation = String.class) TenantId tenant, List<String> scopes,
            String name, Instant createdAt, Instant expiresAt, Instant revokedAt, String replaces, boolean active) {

        static KeyView of(KeyRing.Key key, Instant now) {
            return new KeyView(key.keyId(), key.tenant(), List.copyOf(new TreeSet<>(key.scopes())), key.name(),
                    key.issuedAt(), key.expiresAt(), key.revokedAt(), key.replaces(), key.validAt(now));
        }
    }

    /** A key just issued, with its secret: shown once. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record IssuedKey(String keyId, String apiKey, @Schema(implementation = String.class) TenantId tenant,
            List<String> scopes, String name, Instant createdAt, Instant expiresAt, String replaces) {
    }

    /** The keys of the caller's tenant. */
    public record KeyList(List<KeyView> keys) {
    }

    private final EventLog events;
    private final KeyRing ring;
    private final TenantContext tenant;
    private final Clock clock = Clock.systemUTC();

    public KeyResource(EventLog events, KeyRing ring, TenantContext tenant) {
        this.events = events;
        this.ring = ring;
        this.tenant = tenant;
    }

    @POST
    @Operation(operationId = "issueApiKey",
            summary = "Issue an API key of the caller's tenant", description = "The answer holds the key's secret "
            + "(api_key), shown this once; it works on every service within a second.")
    @APIResponse(responseCode = "201", description = "Issued; Location names the key",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = IssuedKey.class)))
    public Uni<Response> issue(@NotNull IssueKey body) {
        Instant now = now();
        if (body.expiresAt() != null && !body.expiresAt().isAfter(now)) {
            throw ProblemException.badRequest("Invalid request", List.of(new FieldError("expires_at",
                    "must be in the future")));
        }
        Issue issue = issue(new TreeSet<>(body.scopes()), blankToNull(body.name()), body.expiresAt(), null, now);
        return publish(List.of(issue.event())).map(done -> Response.created(URI.create("/v1/admin/api-keys/"
                + issue.key().keyId())).entity(issue.key()).build());
    }

    @GET
    @Operation(operationId = "listApiKeys",
            summary = "The caller's tenant's API keys", description = "Active, expired and revoked; never a secret.")
    public KeyList list() {
        Instant now = now();
        return new KeyList(ring.ofTenant(tenant.tenant()).stream().map(k -> KeyView.of(k, now)).toList());
    }

    @GET
    @Path("/{keyId}")
    @Operation(operationId = "getApiKey", summary = "One API key of the caller's tenant")
    public KeyView get(@PathParam("keyId") String keyId) {
        return KeyView.of(own(keyId), now());
    }

    @POST
    @Path("/{keyId}/rotate")
    @Operation(operationId = "rotateApiKey",
            summary = "Replace an API key", description = "Issues a key with the same scopes and name (its secret "
            + "in the answer) and revokes the old one after grace_seconds (default 0: at once).")
    @APIResponse(responseCode = "201", description = "The successor issued; Location names it",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = IssuedKey.class)))
    @APIResponse(responseCode = "409", description = "The key no longer works")
    public Uni<Response> rotate(@PathParam("keyId") String keyId, RotateKey body) {
        KeyRing.Key old = own(keyId);
        Instant now = now();
        if (!old.validAt(now)) {
            throw ProblemException.conflict("Key " + keyId + " no longer works; issue a new one instead");
        }
        long grace = body == null || body.graceSeconds() == null ? 0 : body.graceSeconds();
        Issue issue = issue(new TreeSet<>(old.scopes()), old.name(), old.expiresAt(), keyId, now);
        Outgoing<KeyEvent> revoke = revocation(keyId, now.plusSeconds(grace), "rotated", now);
        // One send: both are acknowledged, or the caller is told nothing was (a new key whose secret nobody saw is
        // useless, and the old key keeps working).
        return publish(List.of(issue.event(), revoke)).map(done -> Response.created(URI.create("/v1/admin/api-keys/"
                + issue.key().keyId())).entity(issue.key()).build());
    }

    @DELETE
    @Path("/{keyId}")
    @Operation(operationId = "revokeApiKey", summary = "Revoke an API key at once")
    @APIResponse(responseCode = "204", description = "Revoked")
    public Uni<Response> revoke(@PathParam("keyId") String keyId) {
        own(keyId);
        Instant now = now();
        return publish(List.of(revocation(keyId, now, "revoked", now))).map(done -> Response.noContent().build());
    }

    private record Issue(IssuedKey key, Outgoing<KeyEvent> event) {
    }

    private Issue issue(Set<String> scopes, String name, Instant expiresAt, String replaces, Instant now) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        byte[] id = new byte[9];
        RANDOM.nextBytes(id);
        String keyId = "key_" + HexFormat.of().formatHex(id);
        String apiKey = "hsk_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        ApiKeyIssued issued = ApiKeyIssued.newBuilder().setSha256(Hashing.sha256Hex(apiKey))
                .setScopes(new ArrayList<>(scopes)).setName(name).setExpiresAt(expiresAt).setReplaces(replaces)
                .build();
        Outgoing<KeyEvent> event = event(keyId, issued, now);
        return new Issue(new IssuedKey(keyId, apiKey, tenant.tenant(), List.copyOf(scopes), name, now, expiresAt,
                replaces), event);
    }

    private Outgoing<KeyEvent> revocation(String keyId, Instant effective, String reason, Instant now) {
        return event(keyId, ApiKeyRevoked.newBuilder().setEffectiveAt(effective).setReason(reason).build(), now);
    }

    private Outgoing<KeyEvent> event(String keyId, Object payload, Instant now) {
        UUID eventId = UUID.randomUUID();
        KeyEvent event = KeyEvent.newBuilder()
                .setHeader(EventHeaders.create(eventId, tenant.tenant(), tenant.principal(), "admin-api", now,
                        clock))
                .setKeyId(keyId).setPayload(payload).build();
        return new Outgoing<>(keyId, event, eventId.toString());
    }

    /** Publishes, then applies here at once: this replica honours the change as soon as Kafka has it. */
    private Uni<Void> publish(List<Outgoing<KeyEvent>> changes) {
        return events.keys(changes).invoke(receipts -> changes.forEach(change -> ring.apply(change.value())))
                .replaceWithVoid();
    }

    /** A key of the caller's tenant; another tenant's key, or a configured one, is not found. */
    private KeyRing.Key own(String keyId) {
        return ring.get(keyId).filter(k -> k.tenant().equals(tenant.tenant()))
                .orElseThrow(() -> new ProblemException(Problem.of(404, "Not found", "No API key " + keyId
                        + " issued at run time for this tenant (keys in configuration are managed there)")));
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }
}
