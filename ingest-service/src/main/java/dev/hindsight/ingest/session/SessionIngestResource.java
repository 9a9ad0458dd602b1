package dev.hindsight.ingest.session;

import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.ingest.conflict.MessageConflicts;
import dev.hindsight.ingest.erasure.ErasureRequest;
import dev.hindsight.ingest.erasure.ErasureResource;
import dev.hindsight.ingest.erasure.Erasures;
import dev.hindsight.ingest.publish.EventLog;
import dev.hindsight.ingest.request.EventIds;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Sessions and their conversation, published to {@code hindsight.reasoning.v1} keyed by session id. */
@Path("/v1/sessions")
@Tag(name = "Sessions")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.INGEST)
class SessionIngestResource {

    private final EventLog publisher;
    private final MessageConflicts conflicts;
    private final TenantContext tenant;
    private final SessionEventMapper mapper;

    private final Erasures erasures;

    public SessionIngestResource(EventLog publisher, MessageConflicts conflicts, TenantContext tenant,
            Redactor redactor, Erasures erasures) {
        this.erasures = erasures;
        this.mapper = new SessionEventMapper(Clock.systemUTC(), redactor);
        this.publisher = publisher;
        this.conflicts = conflicts;
        this.tenant = tenant;
    }

    @POST
    @Operation(operationId = "startSession",
            summary = "Start a session", description = "Trading sessions without a session_id get one derived from "
            + "(job_id, date, model), so starting the same model-day twice names the same session.")
    @APIResponse(responseCode = "202", description = "Published and acknowledged by Kafka",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionAccepted.class)))
    @APIResponse(responseCode = "400", description = "Invalid request",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "401", description = "No or unknown API key",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge; retry after Retry-After seconds",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> start(@NotNull StartSessionRequest request,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        var event = mapper.sessionStarted(request, caller(idempotencyKey, userAgent));
        return publish(event.key(), List.of(event));
    }

    @POST
    @Path("/{sessionId}/messages")
    @Operation(operationId = "appendMessages",
            summary = "Append messages", description = "Messages in conversation order (message_index); an "
            + "assistant message may carry its thinking steps in exact order, or legacy reasoning text plus tools.")
    @APIResponse(responseCode = "202", description = "Published and acknowledged by Kafka",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionAccepted.class)))
    @APIResponse(responseCode = "400", description = "Invalid request",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "409", description = "A message index already holds a different message",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge; retry after Retry-After seconds",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> append(
            @PathParam("sessionId") @Size(max = 128) @Pattern(regexp = EventIds.PATTERN,
                    message = EventIds.MESSAGE) String sessionId,
            @NotNull AppendMessagesRequest request,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        List<Outgoing<ReasoningEvent>> events = mapper.messagesRecorded(sessionId, request,
                caller(idempotencyKey, userAgent));
        return conflicts.find(authorization, events).chain(found -> {
            if (!found.isEmpty()) {
                throw conflict(found);
            }
            return publish(sessionId, events);
        });
    }

    @DELETE
    @Path("/{sessionId}")
    @RolesAllowed(Scopes.ERASE)
    @Operation(operationId = "eraseSession", summary = "Erase a session",
            description = "The short form of POST /v1/erasures with {\"session_ids\": [sessionId]}.")
    @APIResponse(responseCode = "202", description = "Accepted: the keys are destroyed and the read models apply it; "
            + "follow Location", content = @Content(mediaType = "application/json",
                    schema = @Schema(implementation = ErasureResource.ErasureStatus.class)))
    @APIResponse(responseCode = "404", description = "No such session in this tenant: nothing was erased",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "503", description = "query-service or Kafka did not answer: nothing was erased",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> erase(
            @PathParam("sessionId") @Size(max = 128) @Pattern(regexp = EventIds.PATTERN,
                    message = EventIds.MESSAGE) String sessionId,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        return erasures.erase(tenant.tenant(), tenant.principal(), authorization,
                new ErasureRequest(List.of(sessionId), null, null)).map(ErasureResource::accepted);
    }

    /** 409 naming every message whose index already holds a different message. */
    static ProblemException conflict(List<MessageConflicts.Conflict> found) {
        List<Problem.FieldError> errors = found.stream().map(c -> new Problem.FieldError(
                "messages[" + c.index() + "].message_index", c.reason())).toList();
        return new ProblemException(Problem.of(409, "Conflict", "A message index is already taken by a different "
                + "message; re-sending the identical message is harmless", errors));
    }

    @POST
    @Path("/{sessionId}/positions")
    @Operation(operationId = "recordPositions",
            summary = "Record positions", description = "Trading actions linked to the session; action_id "
            + "is unique per session.")
    @APIResponse(responseCode = "202", description = "Published and acknowledged by Kafka",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionAccepted.class)))
    @APIResponse(responseCode = "400", description = "Invalid request",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> positions(@PathParam("sessionId") @Size(max = 128) @Pattern(regexp = EventIds.PATTERN,
            message = EventIds.MESSAGE) String sessionId,
            @NotNull SessionDetailsRequests.RecordPositions request,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        return publish(sessionId, mapper.positionsRecorded(sessionId, request, caller(idempotencyKey, userAgent)));
    }

    @POST
    @Path("/{sessionId}/activities")
    @Operation(operationId = "recordActivities",
            summary = "Record trace events incrementally", description = "Debugging trace events "
            + "(thought_log, file_edit, command_run) as they happen; event_id is the producer's and makes re-sends "
            + "harmless.")
    @APIResponse(responseCode = "202", description = "Published and acknowledged by Kafka",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionAccepted.class)))
    @APIResponse(responseCode = "400", description = "Invalid request",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> activities(@PathParam("sessionId") @Size(max = 128) @Pattern(regexp = EventIds.PATTERN,
            message = EventIds.MESSAGE) String sessionId,
            @NotNull SessionDetailsRequests.RecordActivities request,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        return publish(sessionId, mapper.activitiesRecorded(sessionId, request.events(), "events", false,
                caller(idempotencyKey, userAgent)));
    }

    @POST
    @Path("/{sessionId}/complete")
    @Operation(operationId = "completeSession",
            summary = "Complete a session", description = "Outcome, final code diff (debugging traces) and totals; "
            + "set judge=true to have the QA judge score any session.")
    @APIResponse(responseCode = "202", description = "Published and acknowledged by Kafka",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionAccepted.class)))
    @APIResponse(responseCode = "400", description = "Invalid request",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> complete(@PathParam("sessionId") @Size(max = 128) @Pattern(regexp = EventIds.PATTERN,
            message = EventIds.MESSAGE) String sessionId,
            @NotNull SessionDetailsRequests.CompleteSession request,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        return publish(sessionId, List.of(mapper.sessionCompleted(sessionId, request,
                caller(idempotencyKey, userAgent))));
    }

    private Uni<Response> publish(String sessionId, List<Outgoing<ReasoningEvent>> events) {
        return publisher.reasoning(events).map(receipts -> accepted(sessionId, receipts));
    }

    private Sender caller(String idempotencyKey, String userAgent) {
        return Sender.of(tenant, userAgent, idempotencyKey);
    }

    private static Response accepted(String sessionId, List<dev.hindsight.platform.kafka.Receipt> receipts) {
        return Response.accepted(new SessionAccepted(sessionId, receipts)).build();
    }
}
