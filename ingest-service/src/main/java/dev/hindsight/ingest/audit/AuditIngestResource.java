package dev.hindsight.ingest.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.ingest.publish.EventLog;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Receipt;
import dev.hindsight.platform.problem.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The audit events: decision sets with their shadow decisions, and user behaviour signals. */
@Path("/v1")
@Tag(name = "Audit")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.INGEST)
class AuditIngestResource {

    static final String DECISION_SET_EXAMPLE = """
            {"event_type": "DECISION_SET_CREATED", "level": "info", "payload": {
              "decision_set_id": "ds-abc123", "message_id": "msg-456", "session_id": "session-789",
              "question_text": "What is the latest Python version?", "question_hash": 1234567890,
              "active_version": "v1.0.0", "shadow_versions": ["v2.0-alpha", "v2.0-beta"],
              "active_decision": {"info_need_type": "EXTERNAL_FACT_UNCERTAIN", "decision_action": "REQUIRE_COMM",
                "confidence_level": "low", "reasoning": "Time-sensitive query requires current data"},
              "shadow_decisions": [
                {"info_need_type": "LOCAL_KNOWLEDGE", "decision_action": "DIRECT_ANSWER", "confidence_level": "high",
                 "reasoning": "Python versioning is well-established"},
                {"info_need_type": "OPINION", "decision_action": "SUGGEST_COMM", "confidence_level": "medium",
                 "reasoning": "May benefit from external validation"}],
              "context_snapshot": {"execution_phase": "planning", "conversation_mode": "chat", "rag_chunks": 3,
                "memory_facts": 5},
              "timestamp": "2025-01-31T10:30:00.000Z"}}""";
    static final String SIGNAL_EXAMPLE = """
            {"event_type": "USER_BEHAVIOR_SIGNAL", "level": "info", "payload": {
              "message_id": "msg-456", "session_id": "session-789", "signal_type": "user_followup_override",
              "signal_data": {"user_action": "/comm search Python latest version", "delay_seconds": 5,
                "override_reason": "wanted current info"},
              "timestamp": "2025-01-31T10:30:05.000Z"}}""";

    /** Answer to an accepted audit event; a signal's has no decision set id. */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public record AuditAccepted(String messageId, String decisionSetId, List<Receipt> receipts) {
    }

    private final EventLog events;
    private final AuditEvents audit;
    private final TenantContext tenant;

    public AuditIngestResource(EventLog events, AuditEvents audit, TenantContext tenant) {
        this.events = events;
        this.audit = audit;
        this.tenant = tenant;
    }

    @POST
    @Path("/decision-sets")
    @Operation(operationId = "recordDecisionSet",
            summary = "Record a decision set (DECISION_SET_CREATED)", description = "The active decision and every "
            + "shadow decision for one message; question_hash is computed when absent. Accepts the wrapped event "
            + "({event_type, level, payload}) or the bare payload.")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(anyOf = {AuditRequests.DecisionSetEvent.class, AuditRequests.DecisionSet.class},
                    description = "The wrapped event or its bare payload; checked field by field, with a 400 "
                    + "listing every offending field"),
            examples = @ExampleObject(name = "decision set", value = DECISION_SET_EXAMPLE)))
    @APIResponse(responseCode = "202", description = "Published and acknowledged by Kafka",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = AuditAccepted.class)))
    @APIResponse(responseCode = "400", description = "Invalid request",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> decisionSet(@NotNull JsonNode body,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        Outgoing<DecisionEvent> event = audit.readDecisionSet(body, caller(idempotencyKey, userAgent));
        return events.decisions(List.of(event)).map(receipts -> Response.accepted(new AuditAccepted(event.key(),
                ((dev.hindsight.events.decisions.DecisionSetRecorded) event.value().getPayload()).getDecisionSetId(),
                receipts)).build());
    }

    @POST
    @Path("/behavior-signals")
    @Operation(operationId = "recordBehaviorSignal",
            summary = "Record a user behaviour signal (USER_BEHAVIOR_SIGNAL)", description = "Exactly the seven "
            + "defined signal types, with their documented signal_data fields type-checked; other fields are kept.")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(anyOf = {AuditRequests.BehaviorSignalEvent.class, AuditRequests.BehaviorSignal.class},
                    description = "The wrapped event or its bare payload; checked field by field, with a 400 "
                    + "listing every offending field"),
            examples = @ExampleObject(name = "behaviour signal", value = SIGNAL_EXAMPLE)))
    @APIResponse(responseCode = "202", description = "Published and acknowledged by Kafka",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = AuditAccepted.class)))
    @APIResponse(responseCode = "400", description = "Invalid request",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> behaviorSignal(@NotNull JsonNode body,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        Outgoing<SignalEvent> event = audit.readSignal(body, caller(idempotencyKey, userAgent));
        return events.signals(List.of(event))
                .map(receipts -> Response.accepted(new AuditAccepted(event.key(), null, receipts)).build());
    }

    private Sender caller(String idempotencyKey, String userAgent) {
        return Sender.of(tenant, userAgent, idempotencyKey);
    }
}
