package dev.hindsight.query.session;

import dev.hindsight.platform.MessageFingerprint;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import io.smallrye.mutiny.Uni;
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
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Which of these messages would conflict with one already recorded at the same index of the same session (a
 * different role, content, tool name or tool input). ingest-service asks before publishing so that a conflicting
 * re-send is refused with 409 (ADR 0005); an identical re-send is not a conflict. One query for the whole list
 * ({@link MessageConflictRepository}).
 */
@Path("/v1/message-conflicts")
@Tag(name = "Sessions")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Scopes.INGEST, Scopes.READ})
class MessageConflictResource {

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

    private final MessageConflictRepository messages;
    private final TenantContext tenant;

    public MessageConflictResource(MessageConflictRepository messages, TenantContext tenant) {
        this.messages = messages;
        this.tenant = tenant;
    }

    @POST
    @Operation(operationId = "checkMessageConflicts",
            summary = "Messages that conflict with recorded ones", description = "Answers the candidates (by "
            + "position, from 0) whose session already has a different message at that index in the read model.")
    @APIResponse(responseCode = "200", description = "{\"conflicts\": [...]} (empty when none)")
    @APIResponse(responseCode = "400", description = "Invalid request", content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Conflicts> check(@Valid @NotNull Check check) {
        return messages.conflicts(tenant.tenant(), check.messages()).map(Conflicts::new);
    }
}
