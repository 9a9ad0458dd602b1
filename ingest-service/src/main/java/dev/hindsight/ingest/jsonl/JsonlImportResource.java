package dev.hindsight.ingest.jsonl;

import dev.hindsight.platform.redact.Redactor;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.ingest.publish.EventLog;
import dev.hindsight.ingest.request.RequestReader;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.ingest.session.AppendMessagesRequest;
import dev.hindsight.ingest.session.SessionEventMapper;
import dev.hindsight.ingest.session.StartSessionRequest;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.json.UnstorableValueException;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.FieldPaths;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Migration off the older JSONL logs (design.md § JSONL import; {@code data/agent_data/<model>/log/<date>/log.jsonl}):
 * one file becomes one trading session with its messages in file order, published in one transaction. Ids derive from
 * (job, date, model) and each message's index and content, so importing the same file again creates nothing new. Lines
 * that cannot be read are reported with their line number, never skipped silently.
 */
@Path("/v1/imports")
@Tag(name = "Migration")
class JsonlImportResource {

    /** What one file yielded. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record ImportResult(String sessionId, int lines, int messages, List<FieldError> rejectedLines) {
    }

    private final EventLog events;
    private final RequestReader reader;
    private final TenantContext tenant;
    private final ObjectMapper json;
    private final SessionEventMapper sessions;

    public JsonlImportResource(EventLog events, RequestReader reader, TenantContext tenant, ObjectMapper json,
            Redactor redactor) {
        this.sessions = new SessionEventMapper(Clock.systemUTC(), redactor);
        this.events = events;
        this.reader = reader;
        this.tenant = tenant;
        this.json = json;
    }

    @POST
    @Path("/jsonl")
    @Consumes({"application/x-ndjson", "application/jsonl", MediaType.TEXT_PLAIN})
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed(Scopes.INGEST)
    @Operation(operationId = "importJsonl",
            summary = "Import one log.jsonl file as a trading session", description = "Each line is a "
            + "message ({role, content, timestamp?, tool_name?, tool_input?}) or a step with a list of them "
            + "(\"new_messages\" or \"messages\"). ./hindsight import-jsonl walks a data/agent_data tree.")
    @APIResponse(responseCode = "202", description = "Imported; lines that could not be read are listed",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = ImportResult.class)))
    @APIResponse(responseCode = "400", description = "Missing or invalid job_id, date or model")
    public Uni<Response> importFile(
            @QueryParam("job_id") @NotBlank @Size(max = 128) String jobId,
            @QueryParam("date") @NotBlank @Pattern(regexp = "^\\d{4}-\\d{2}-\\d{2}$", message = "must be YYYY-MM-DD")
            String date,
            @QueryParam("model") @NotBlank @Size(max = 128) String model,
            @NotNull String body,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent) {
        LocalDate day;
        try {
            day = LocalDate.parse(date);
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest("Invalid date", List.of(new FieldError("date", "not a calendar date")));
        }
        Sender caller = Sender.of(tenant, userAgent, null);
        List<FieldError> rejected = new ArrayList<>();
        List<JsonNode> messages = new ArrayList<>();
        String[] lines = body.split("\r?\n");
        int lineCount = 0;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            lineCount++;
            try {
                collect(json.readTree(lines[i]), messages);
            } catch (JsonProcessingException | IllegalArgumentException e) {
                rejected.add(new FieldError("line " + (i + 1), e instanceof UnstorableValueException u
                        ? FieldPaths.of(u.getPath()) + " " + u.reason()
                        : e instanceof JsonProcessingException j ? "not JSON: " + j.getOriginalMessage()
                        : e.getMessage()));
            }
        }
        var start = new StartSessionRequest(null, null, StartSessionRequest.Kind.TRADING,
                firstTimestamp(messages), new StartSessionRequest.Trading(jobId, day, model), null, null, null, null);
        Outgoing<ReasoningEvent> started = sessions.sessionStarted(start, caller);
        List<Outgoing<ReasoningEvent>> all = new ArrayList<>();
        all.add(started);
        List<AppendMessagesRequest.Message> bound = new ArrayList<>();
        for (int index = 0; index < messages.size(); index++) {
            var node = ((com.fasterxml.jackson.databind.node.ObjectNode) messages.get(index)).put("message_index",
                    bound.size());
            List<FieldError> errors = new ArrayList<>();
            AppendMessagesRequest.Message message = reader.read(node, AppendMessagesRequest.Message.class,
                    "message " + index, errors);
            if (message == null) {
                rejected.addAll(errors);
            } else {
                bound.add(message);
            }
        }
        if (!bound.isEmpty()) {
            all.addAll(sessions.messagesRecorded(started.key(), new AppendMessagesRequest(bound), caller));
        }
        ImportResult result = new ImportResult(started.key(), lineCount, bound.size(), rejected);
        return events.reasoningAtomically(all).map(receipts -> Response.accepted(result).build());
    }

    /** A line is one message, or a step holding several under new_messages / messages. */
    private static void collect(JsonNode line, List<JsonNode> messages) {
        if (!line.isObject()) {
            throw new IllegalArgumentException("not an object");
        }
        JsonNode many = line.has("new_messages") ? line.get("new_messages") : line.get("messages");
        if (many != null) {
            if (!many.isArray()) {
                throw new IllegalArgumentException("new_messages / messages must be an array");
            }
            for (JsonNode message : many) {
                if (!message.isObject()) {
                    throw new IllegalArgumentException("every message must be an object");
                }
                messages.add(only(message));
            }
        } else if (line.has("role")) {
            messages.add(only(line));
        } else {
            throw new IllegalArgumentException("neither a message (role, content) nor new_messages / messages");
        }
    }

    /** The message fields Hindsight keeps; producer extras of the old log format are dropped here, not rejected. */
    private static JsonNode only(JsonNode message) {
        var kept = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        for (String field : List.of("role", "content", "timestamp", "tool_name", "tool_input")) {
            if (message.has(field)) {
                kept.set(field, message.get(field));
            }
        }
        if (!kept.has("content") || kept.get("content").isNull()) {
            kept.put("content", "");
        }
        return kept;
    }

    private static java.time.OffsetDateTime firstTimestamp(List<JsonNode> messages) {
        for (JsonNode message : messages) {
            JsonNode timestamp = message.get("timestamp");
            if (timestamp != null && timestamp.isTextual()) {
                try {
                    return java.time.OffsetDateTime.parse(timestamp.textValue());
                } catch (DateTimeParseException ignored) {
                    // Validated with the message itself.
                }
            }
        }
        return null;
    }
}
