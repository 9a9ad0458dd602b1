package dev.hindsight.query.session;

import dev.hindsight.platform.MessageFingerprint;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.query.projection.Generations;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Which of these messages would conflict with one already recorded at the same index of the same session (a
 * different role, content, tool name or tool input). ingest-service asks before publishing so that a conflicting
 * re-send is refused with 409 (ADR 0005); an identical re-send is not a conflict. One query for the whole list, one
 * primary-key lookup per candidate: written as a LATERAL subquery with LIMIT 1 so the planner cannot turn it into a
 * join. Written as a join, on connections that had run it for a while it was active in 85% of pg_stat_activity
 * samples at 1,000 events/s while rm.message's index scans read ~640 entries each; freshly started connections
 * planned it well (docs/benchmarks.md).
 */
@Path("/v1/message-conflicts")
@Tag(name = "Sessions")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Scopes.INGEST, Scopes.READ})
public class MessageConflictResource {

    // The recorded message's fingerprint is computed from its row only when the index is taken (rare: appends are to
    // new indexes), so nothing extra is stored per message.
    private static final String FIND = """
            SELECT i.n, m.role
            FROM unnest($2::text[], $3::int[], $4::text[]) WITH ORDINALITY AS i(session_id, message_index, fingerprint, n)
            CROSS JOIN LATERAL (SELECT role, content, tool_name, tool_input FROM {rm}.message
                                WHERE tenant_id = $1 AND session_id = i.session_id AND message_index = i.message_index
                                LIMIT 1) m
            WHERE %s <> i.fingerprint
            ORDER BY i.n""".formatted(MessageFingerprint.sql("m"));

    /**
     * A message about to be published: its {@link MessageFingerprint}, or (from an ingest-service older than
     * fingerprints) the fields it is computed from.
     */
    public record Candidate(@NotNull @Size(max = 128) String sessionId, @NotNull @Min(0) Integer messageIndex,
            @Pattern(regexp = "^[0-9a-f]{64}$") String fingerprint, String role, String content, String toolName,
            String toolInput) {

        @AssertTrue(message = "needs fingerprint, or role and content")
        boolean isIdentified() {
            return fingerprint != null || (role != null && content != null);
        }

        String fingerprintOrComputed() {
            return fingerprint != null ? fingerprint : MessageFingerprint.of(role, content, toolName, toolInput);
        }
    }

    public record Check(@NotNull @Size(max = 5000) List<@Valid @NotNull Candidate> messages) {
    }

    /** A candidate (by its position in the request) and what is recorded at its index instead. */
    public record Conflict(int index, String sessionId, int messageIndex, String recordedRole) {
    }

    public record Conflicts(List<Conflict> conflicts) {
    }

    private final Pool pool;
    private final Generations generations;
    private final TenantContext tenant;

    public MessageConflictResource(Pool pool, Generations generations, TenantContext tenant) {
        this.pool = pool;
        this.generations = generations;
        this.tenant = tenant;
    }

    @POST
    @Operation(operationId = "checkMessageConflicts",
            summary = "Messages that conflict with recorded ones", description = "Answers the candidates (by "
            + "position, from 0) whose session already has a different message at that index in the read model.")
    @APIResponse(responseCode = "200", description = "{\"conflicts\": [...]} (empty when none)")
    @APIResponse(responseCode = "400", description = "Invalid request", content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Conflicts> check(@Valid @NotNull Check check) {
        int size = check.messages().size();
        String[] sessions = new String[size];
        Integer[] indexes = new Integer[size];
        String[] fingerprints = new String[size];
        for (int i = 0; i < size; i++) {
            Candidate candidate = check.messages().get(i);
            sessions[i] = candidate.sessionId();
            indexes[i] = candidate.messageIndex();
            fingerprints[i] = candidate.fingerprintOrComputed();
        }
        if (size == 0) {
            return Uni.createFrom().item(new Conflicts(List.of()));
        }
        String tenantId = tenant.tenant();
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(FIND)).execute(Tuple.of(tenantId, sessions, indexes,
                fingerprints))).map(rows -> {
                    List<Conflict> conflicts = new ArrayList<>();
                    for (Row row : rows) {
                        int index = row.getLong("n").intValue() - 1;
                        conflicts.add(new Conflict(index, sessions[index], indexes[index], row.getString("role")));
                    }
                    return new Conflicts(conflicts);
                });
    }
}
