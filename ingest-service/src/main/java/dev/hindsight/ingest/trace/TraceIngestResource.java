package dev.hindsight.ingest.trace;

import dev.hindsight.platform.redact.Redactor;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.reasoning.DebugAttributes;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionOutcome;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.ingest.publish.EventLog;
import dev.hindsight.ingest.request.EventIds;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.ingest.request.Timestamps;
import dev.hindsight.ingest.session.SessionDetailsRequests;
import dev.hindsight.ingest.session.SessionEventMapper;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.kafka.EventHeaders;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Receipt;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The whole-trace upload (design.md § Trace format): validated against the published JSON Schema, then published as one
 * debug session (started, every event in order, completed) in a single Kafka transaction, so readers see all of it or
 * none of it. Answered 202 with the trace id and {@code qa_results.status = "pending"}: the QA judge runs
 * asynchronously.
 */
@Path("/v1")
@Tag(name = "Traces")
class TraceIngestResource {

    static final String EXAMPLE = """
            {"trace_id": "3f2b9c1e-7a4d-4e8b-9c1f-2d3e4f5a6b7c", "developer_id": "dev-42", "task_id": "BUG-1234",
             "task_description": "Parser drops the last token of a line.",
             "repo_url": "https://github.com/example/repo.git", "repo_commit_hash": "a1b2c3d",
             "start_timestamp": "2025-10-29 T16:00:00Z", "end_timestamp": "2025-10-29 T18:00:00Z",
             "Final_code_diff": "--- a/parser.py\\n+++ b/parser.py\\n@@ -10 +10 @@\\n-    return tokens[:-1]\\n+    return tokens",
             "events": [
               {"event_id": "e1", "timestamp": "2025-10-29 T16:05:10Z", "event_type": "thought_log",
                "payload": {"thought_text": "The last token is lost: suspect an off-by-one in the slice."}},
               {"event_id": "e2", "timestamp_iso": "2025-10-29 T16:06:25Z", "event_type": "file_edit",
                "payload": {"file_path": "parser.py", "content_diff": "-    return tokens[:-1]\\n+    return tokens"}},
               {"event_id": "e3", "timestamp_iso": "2025-10-29 T16:07:00Z", "event_type": "command_run",
                "payload": {"command_text": "pytest tests/test_parser.py", "working_directory": ".", "exit_code": 0,
                            "stdout": "3 passed", "stderr": ""}},
               {"event_id": "e4", "timestamp_iso": "2025-10-29 T16:07:15Z", "event_type": "thought_log",
                "payload": {"thought_text": "Tests pass after the fix; verified the edge case of an empty line."}}],
             "qa_results": null}""";

    /** The 202 answer. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TraceAccepted(String traceId, Map<String, String> qaResults, List<Receipt> receipts) {
    }

    private final TraceSchema schema;
    private final EventLog events;
    private final TenantContext tenant;
    private final ObjectMapper json;
    private final Clock clock = Clock.systemUTC();
    private final SessionEventMapper sessions;
    private final Redactor redactor;

    public TraceIngestResource(TraceSchema schema, EventLog events, TenantContext tenant, ObjectMapper json,
            Redactor redactor) {
        this.sessions = new SessionEventMapper(clock, redactor);
        this.redactor = redactor;
        this.schema = schema;
        this.events = events;
        this.tenant = tenant;
        this.json = json;
    }

    @GET
    @Path("/schemas/trace.json")
    @Produces("application/schema+json")
    @PermitAll
    @Operation(operationId = "getTraceSchema", summary = "The JSON Schema every uploaded trace is validated against")
    @APIResponse(responseCode = "200", description = "A JSON Schema (draft 2020-12)",
            content = @Content(mediaType = "application/schema+json", schema = @Schema(type = SchemaType.OBJECT)))
    public String traceSchema() {
        return schema.text();
    }

    @POST
    @Path("/traces")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed(Scopes.INGEST)
    @Operation(operationId = "uploadTrace",
            summary = "Upload a whole debugging trace", description = "The trace's JSON as written. Validated "
            + "against /v1/schemas/trace.json; all events are published atomically; the QA judge runs later.")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.OBJECT, description = "As the example shows; checked field by "
                    + "field, with a 400 listing every offending field"),
            examples = @ExampleObject(name = "trace", value = EXAMPLE)))
    @APIResponse(responseCode = "202", description = "Accepted: durable in Kafka, QA pending",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = TraceAccepted.class)))
    @APIResponse(responseCode = "400", description = "The trace does not match the schema; every violation listed",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "503", description = "Kafka did not commit the transaction; nothing was accepted",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> upload(@NotNull JsonNode trace,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        List<FieldError> errors = schema.validate(trace);
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("The trace does not match " + "/v1/schemas/trace.json", errors);
        }
        Sender caller = Sender.of(tenant, userAgent, idempotencyKey);
        String traceId = trace.get("trace_id").textValue();
        List<Outgoing<ReasoningEvent>> traceEvents = toEvents(traceId, trace, caller);
        return events.reasoningAtomically(traceEvents).map(receipts -> Response.accepted(
                new TraceAccepted(traceId, Map.of("status", "pending"), receipts)).build());
    }

    private List<Outgoing<ReasoningEvent>> toEvents(String traceId, JsonNode trace, Sender caller) {
        Instant start = time(trace, "start_timestamp");
        Instant end = time(trace, "end_timestamp");
        List<SessionDetailsRequests.Activity> activities = new ArrayList<>();
        for (JsonNode event : trace.get("events")) {
            activities.add(json.convertValue(event, SessionDetailsRequests.Activity.class));
        }
        // Validated by the schema already; the mapper's own checks (lenient timestamps, payloads) still apply.
        List<Outgoing<ReasoningEvent>> activityEvents = sessions.activitiesRecorded(traceId, activities, "events",
                true, caller);
        Instant startedAt = start != null ? start
                : activityEvents.isEmpty() ? clock.instant().truncatedTo(ChronoUnit.MILLIS)
                        : activityEvents.get(0).value().getHeader().getOccurredAt();
        Instant completedAt = end != null ? end
                : activityEvents.isEmpty() ? startedAt
                        : activityEvents.get(activityEvents.size() - 1).value().getHeader().getOccurredAt();

        List<Outgoing<ReasoningEvent>> all = new ArrayList<>(activityEvents.size() + 2);
        SessionStarted started = SessionStarted.newBuilder()
                .setKind(SessionKind.DEBUG)
                .setStartedAt(startedAt)
                .setDebug(DebugAttributes.newBuilder()
                        .setDeveloperId(trace.get("developer_id").textValue())
                        .setTaskId(trace.get("task_id").textValue())
                        .setTaskDescription(text(trace, "task_description"))
                        .setRepoUrl(text(trace, "repo_url"))
                        .setRepoCommitHash(text(trace, "repo_commit_hash"))
                        .build())
                .setSubject(text(trace, "subject"))
                .build();
        all.add(event(traceId, "trace-started", startedAt, redactor.apply(caller.tenant(), started), caller));
        all.addAll(activityEvents);
        String diff = text(trace, "Final_code_diff") != null ? text(trace, "Final_code_diff")
                : text(trace, "final_code_diff");
        SessionCompleted completed = SessionCompleted.newBuilder()
                .setOutcome(SessionOutcome.UNKNOWN)
                .setCompletedAt(completedAt)
                .setFinalCodeDiff(diff)
                .setJudgeRequested(true)
                .build();
        all.add(event(traceId, "trace-completed", completedAt, redactor.apply(caller.tenant(), completed), caller));
        return all;
    }

    private Outgoing<ReasoningEvent> event(String traceId, String what, Instant at, Object payload, Sender caller) {
        var eventId = caller.idempotencyKey() != null
                ? EventIds.fromIdempotencyKey(caller.tenant(), caller.idempotencyKey(), what)
                : EventIds.derived(what, traceId);
        ReasoningEvent event = ReasoningEvent.newBuilder()
                .setHeader(EventHeaders.create(eventId, caller.tenant(), caller.principal(), caller.client(), at,
                        clock))
                .setSessionId(traceId)
                .setPayload(payload)
                .build();
        return new Outgoing<>(traceId, event, eventId.toString());
    }

    private static Instant time(JsonNode trace, String field) {
        return Timestamps.parse(text(trace, field)).orElse(null);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
