package dev.hindsight.ingest.batch;

import dev.hindsight.platform.redact.Redactor;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.ingest.audit.AuditEvents;
import dev.hindsight.ingest.batch.BatchItems.Parsed;
import dev.hindsight.ingest.conflict.MessageConflicts;
import dev.hindsight.ingest.publish.EventLog;
import dev.hindsight.ingest.request.RequestReader;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.ingest.session.SessionEventMapper;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Receipt;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
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
 * {@code POST /v1/events:batch}: a mixed list of anything the other endpoints take. Every item is validated on its
 * own and gets its own result; the accepted ones are published together (Kafka batches them) and are durable before
 * the answer. Nothing is dropped silently: an item is accepted with its receipts, rejected with its reasons, or
 * unavailable (Kafka did not acknowledge it; retry it).
 */
// Class path /v1 like AuditIngestResource: Quarkus REST picks the resource class by its path before the method, so a
// longer class path under the same prefix would never be reached.
@Path("/v1")
@Tag(name = "Batch")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.INGEST)
class BatchResource {

    /** What happened to one item. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record ItemResult(int index, String status, String sessionId, String messageId, List<Receipt> receipts,
            List<FieldError> errors) {
    }

    /** The whole answer: counts, then one result per item, in request order. */
    public record BatchResult(int accepted, int rejected, int unavailable, List<ItemResult> results) {
    }

    private final EventLog events;
    private final ObjectMapper json;
    private final BatchItems items;
    private final TenantContext tenant;
    private final MessageConflicts conflicts;

    private final ErasureLog erasures;

    public BatchResource(EventLog events, RequestReader reader, AuditEvents audit, TenantContext tenant,
            MessageConflicts conflicts, ObjectMapper json, Redactor redactor, ErasureLog erasures) {
        this.erasures = erasures;
        this.json = json;
        this.conflicts = conflicts;
        this.events = events;
        this.items = new BatchItems(json, reader, audit, new SessionEventMapper(Clock.systemUTC(), redactor));
        this.tenant = tenant;
    }

    @POST
    @Path("/events:batch")
    @Operation(operationId = "publishEvents",
            summary = "Publish a mixed batch", description = "items[].type is one of session, messages, positions, "
            + "activities, complete (these need session_id, except session), decision_set, behavior_signal; "
            + "items[].body is what the matching endpoint takes. 200 with a result per item: accepted (with "
            + "receipts), rejected (with errors) or unavailable (Kafka did not acknowledge; retry the item).")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.OBJECT), examples = @ExampleObject(name = "mixed",
            value = """
                    {"items": [
                      {"type": "session", "body": {"session_id": "chat-1", "kind": "chat"}},
                      {"type": "messages", "session_id": "chat-1",
                       "body": {"messages": [{"message_index": 0, "role": "user", "content": "Hi"}]}},
                      {"type": "behavior_signal", "body": {"message_id": "msg-1", "session_id": "chat-1",
                       "signal_type": "smooth_completion", "signal_data": {"interaction_duration_seconds": 30}}}]}""")))
    @APIResponse(responseCode = "200", description = "One result per item", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = BatchResult.class)))
    @APIResponse(responseCode = "400", description = "Not a batch (no items array, or too many items)",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<byte[]> publish(byte[] bytes,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization)
            throws IOException {
        // Read here, on the event loop, as bytes: a JsonNode parameter would be parsed on a worker thread, one more
        // hand-off per request (docs/benchmarks.md). The credential is read once: each read goes through request-scoped
        // proxies, which reading it per item would repeat for every item.
        BatchItems.Read read = items.read(bytes, Sender.of(tenant, userAgent, null), idempotencyKey);
        List<Parsed> parsed = read.parsed();
        List<List<FieldError>> rejections = read.rejections();
        // An item about an erased session, message or trace is refused alone, as 410 refuses a request (ADR 0028).
        TenantId caller = tenant.tenant();
        for (int i = 0; i < parsed.size(); i++) {
            Parsed item = parsed.get(i);
            if (item != null && (erasures.erased(caller, item.sessionId()) || erasures.erased(caller,
                    item.messageId()))) {
                parsed.set(i, null);
                rejections.get(i).add(new FieldError("items[" + i + "]", "it is about erased data (its session or "
                        + "message, or the tenant, was erased); events for it are refused"));
            }
        }
        // Messages whose index already holds a different message reject their item (one check for the batch).
        List<Outgoing<ReasoningEvent>> all = new ArrayList<>();
        List<int[]> owners = new ArrayList<>();
        for (int i = 0; i < parsed.size(); i++) {
            if (parsed.get(i) != null) {
                List<Outgoing<ReasoningEvent>> own = parsed.get(i).reasoning();
                for (int k = 0; k < own.size(); k++) {
                    all.add(own.get(k));
                    owners.add(new int[] {i, k});
                }
            }
        }
        return conflicts.find(authorization, all).chain(found -> {
            for (MessageConflicts.Conflict conflict : found) {
                int[] owner = owners.get(conflict.index());
                parsed.set(owner[0], null);
                rejections.get(owner[0]).add(new FieldError("items[" + owner[0] + "].body.messages[" + owner[1]
                        + "].message_index", conflict.reason()));
            }
            return sendAll(parsed, rejections).map(this::write);
        });
    }

    /**
     * The answer as bytes, written in one go: returning the record would have Quarkus REST stream it through its
     * Jackson writer and output stream, layers an answer already complete does not need (docs/benchmarks.md). Same
     * JSON, same mapper.
     */
    private byte[] write(BatchResult result) {
        try {
            return json.writeValueAsBytes(result);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A batch result could not be written as JSON", e);
        }
    }

    private Uni<BatchResult> sendAll(List<Parsed> parsed, List<List<FieldError>> rejections) {
        // One send per topic for the whole request, so the producer batches across items.
        Uni<Sent> reasoning = send(events::reasoning, parsed, Parsed::reasoning);
        Uni<Sent> decisions = send(events::decisions, parsed, Parsed::decisions);
        Uni<Sent> signals = send(events::signals, parsed, Parsed::signals);
        return Uni.combine().all().unis(reasoning, decisions, signals).asTuple().map(sent -> {
            List<ItemResult> results = new ArrayList<>(parsed.size());
            for (int i = 0; i < parsed.size(); i++) {
                results.add(result(i, parsed.get(i), rejections.get(i), sent.getItem1(), sent.getItem2(),
                        sent.getItem3()));
            }
            return new BatchResult(
                    (int) results.stream().filter(r -> r.status().equals("accepted")).count(),
                    (int) results.stream().filter(r -> r.status().equals("rejected")).count(),
                    (int) results.stream().filter(r -> r.status().equals("unavailable")).count(),
                    results);
        });
    }

    /** One topic's send for the whole batch: each item's receipts in item order, or null when Kafka failed. */
    private record Sent(List<List<Receipt>> perItem) {
    }

    private static <T> Uni<Sent> send(Function<List<Outgoing<T>>, Uni<List<Receipt>>> publish, List<Parsed> parsed,
            Function<Parsed, List<Outgoing<T>>> eventsOf) {
        List<Outgoing<T>> all = new ArrayList<>();
        for (Parsed item : parsed) {
            if (item != null) {
                all.addAll(eventsOf.apply(item));
            }
        }
        return publish.apply(all).map(receipts -> {
            List<List<Receipt>> perItem = new ArrayList<>(parsed.size());
            int at = 0;
            for (Parsed item : parsed) {
                int count = item == null ? 0 : eventsOf.apply(item).size();
                perItem.add(receipts.subList(at, at + count));
                at += count;
            }
            return new Sent(perItem);
        }).onFailure().recoverWithItem(new Sent(null));
    }

    private static ItemResult result(int index, Parsed item, List<FieldError> errors, Sent reasoning,
            Sent decisions, Sent signals) {
        if (item == null) {
            return new ItemResult(index, "rejected", null, null, List.of(), errors);
        }
        boolean lost = (reasoning.perItem() == null && !item.reasoning().isEmpty())
                || (decisions.perItem() == null && !item.decisions().isEmpty())
                || (signals.perItem() == null && !item.signals().isEmpty());
        if (lost) {
            return new ItemResult(index, "unavailable", item.sessionId(), item.messageId(), List.of(),
                    List.of(new FieldError("items[" + index + "]",
                            "the event log did not acknowledge this item; retry it")));
        }
        List<Receipt> receipts = new ArrayList<>();
        for (Sent topic : List.of(reasoning, decisions, signals)) {
            if (topic.perItem() != null) {
                receipts.addAll(topic.perItem().get(index));
            }
        }
        return new ItemResult(index, "accepted", item.sessionId(), item.messageId(), receipts, List.of());
    }

    /** The same endpoint for clients that percent-encode the colon; Quarkus REST matches paths undecoded. */
    @POST
    @Path("/events%3Abatch")
    @Operation(operationId = "publishEventsEncodedPath", hidden = true)
    public Uni<byte[]> publishEncoded(byte[] bytes,
            @HeaderParam("Idempotency-Key") @Size(max = 256) String idempotencyKey,
            @Parameter(hidden = true) @HeaderParam("User-Agent") String userAgent,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization)
            throws IOException {
        return publish(bytes, idempotencyKey, userAgent, authorization);
    }
}
