package dev.hindsight.query.otel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.events.spans.LogRecorded;
import dev.hindsight.events.spans.SpanEvent;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Json;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * GenAI events sent as log records (ADR 0025), kept in {@code otel_log} and joined to their span when a session is
 * assembled: each becomes one of the span's events, its body's fields beside its attributes (the shape the older
 * conventions gave span events, which {@link SpanAssembly} reads), and the attributes of a
 * {@code gen_ai.client.inference.operation.details} event complete the span's own (its input and output messages,
 * where the span carries none). An event whose span has not arrived waits in the table: the span's arrival assembles
 * the session again, with it.
 */
final class SpanLogs {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The event that carries a call's details as attributes, in the conventions since 1.37. */
    static final String OPERATION_DETAILS = "gen_ai.client.inference.operation.details";

    private static final String INSERT = """
            INSERT INTO {rm}.otel_log (tenant_id, trace_id, span_id, event_name, time_unix_nano, position, body,
                                       attributes, truncated, event_id, recorded_at)
            SELECT tenant_id, trace_id, span_id, event_name, time_unix_nano, position, body::jsonb, attributes::jsonb,
                   truncated::jsonb, event_id, recorded_at
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::int[], $7::text[],
                        $8::text[], $9::text[], $10::uuid[], $11::timestamptz[])
                AS l(tenant_id, trace_id, span_id, event_name, time_unix_nano, position, body, attributes, truncated,
                     event_id, recorded_at)
            ON CONFLICT (tenant_id, trace_id, event_id) DO NOTHING""";

    /** The GenAI events of the sessions' traces. */
    private static final String OF_SESSIONS = """
            SELECT l.tenant_id, l.trace_id, l.span_id, l.event_name, l.time_unix_nano, l.position, l.body::text AS body,
                   l.attributes::text AS attributes, l.event_id
            FROM unnest($1::text[], $2::text[]) AS u(tenant_id, session_id)
            JOIN {rm}.otel_trace t USING (tenant_id, session_id)
            JOIN {rm}.otel_log l ON l.tenant_id = t.tenant_id AND l.trace_id = t.trace_id""";

    private SpanLogs() {
    }

    /** Stores a batch's log records (none: nothing to do). */
    static Uni<Void> insert(SqlClient tx, ReadModel model, List<SpanEvent> logs) {
        if (logs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = logs.size();
        String[] tenants = new String[n];
        String[] traces = new String[n];
        String[] spans = new String[n];
        String[] names = new String[n];
        Long[] times = new Long[n];
        Integer[] positions = new Integer[n];
        String[] bodies = new String[n];
        String[] attributes = new String[n];
        String[] truncated = new String[n];
        UUID[] ids = new UUID[n];
        OffsetDateTime[] recorded = new OffsetDateTime[n];
        for (int i = 0; i < n; i++) {
            SpanEvent event = logs.get(i);
            LogRecorded log = (LogRecorded) event.getPayload();
            tenants[i] = event.getHeader().getTenantId();
            traces[i] = event.getTraceId();
            spans[i] = log.getSpanId();
            names[i] = log.getEventName();
            times[i] = log.getTimeUnixNano();
            positions[i] = log.getPosition();
            bodies[i] = log.getBody();
            attributes[i] = log.getAttributes();
            truncated[i] = new JsonArray(new ArrayList<>(log.getTruncated())).encode();
            ids[i] = event.getHeader().getEventId();
            recorded[i] = Json.utc(event.getHeader().getRecordedAt());
        }
        return tx.preparedQuery(model.sql(INSERT)).execute(Tuple.from(new Object[] {tenants, traces, spans, names,
                times, positions, bodies, attributes, truncated, ids, recorded})).replaceWithVoid();
    }

    /** The GenAI events of the sessions {@code keys} names ({@code [tenants, session ids]}), by trace and span. */
    static Uni<Map<SpanKey, List<Event>>> ofSessions(SqlClient tx, ReadModel model, Tuple keys) {
        return tx.preparedQuery(model.sql(OF_SESSIONS)).execute(keys).map(SpanLogs::bySpan);
    }

    private static Map<SpanKey, List<Event>> bySpan(RowSet<Row> rows) {
        Map<SpanKey, List<Event>> bySpan = new HashMap<>();
        for (Row row : rows) {
            SpanKey key = new SpanKey(TenantId.of(row.getString("tenant_id")), row.getString("trace_id"),
                    row.getString("span_id"));
            bySpan.computeIfAbsent(key, k -> new ArrayList<>()).add(new Event(row.getString("event_name"),
                    row.getLong("time_unix_nano"), row.getInteger("position"), tree(row.getString("body")),
                    tree(row.getString("attributes")), row.getUUID("event_id")));
        }
        return bySpan;
    }

    /** {@code span} with its GenAI events joined: as span events, and the operation details in its attributes. */
    static SpanFact joined(SpanFact span, List<Event> events) {
        if (events == null || events.isEmpty()) {
            return span;
        }
        // One order, whatever order the events arrived in: their time, then their place in their export (a call's
        // input messages often share one time), then their id.
        List<Event> ordered = new ArrayList<>(events);
        ordered.sort(Comparator.comparingLong(Event::timeNanos).thenComparingInt(Event::position)
                .thenComparing(Event::id));
        List<SpanFact.Event> all = new ArrayList<>(span.events());
        ObjectNode attributes = span.attributes() instanceof ObjectNode own ? own.deepCopy() : JSON.createObjectNode();
        for (Event event : ordered) {
            ObjectNode merged = event.attributes().isObject() ? ((ObjectNode) event.attributes()).deepCopy()
                    : JSON.createObjectNode();
            merged.remove("event.name");
            if (event.body() != null && event.body().isObject()) {
                event.body().fields().forEachRemaining(field -> merged.set(field.getKey(), field.getValue()));
            } else if (event.body() != null && !event.body().isNull()) {
                merged.set("body", event.body());
            }
            if (event.name().equals(OPERATION_DETAILS)) {
                for (Iterator<Map.Entry<String, JsonNode>> it = merged.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    if (!attributes.has(field.getKey())) {
                        attributes.set(field.getKey(), field.getValue());
                    }
                }
            }
            all.add(new SpanFact.Event(event.name(), event.timeNanos(), merged));
        }
        return new SpanFact(span.traceId(), span.spanId(), span.parentSpanId(), span.name(), span.convention(),
                span.startNanos(), span.endNanos(), span.statusCode(), span.statusMessage(), attributes, all,
                span.resource());
    }

    private static JsonNode tree(String json) {
        if (json == null) {
            return null;
        }
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored log record column is not JSON", e);
        }
    }

    /** A tenant's span. */
    record SpanKey(TenantId tenant, String traceId, String spanId) {
    }

    /** One stored GenAI event. */
    record Event(String name, long timeNanos, int position, JsonNode body, JsonNode attributes, UUID id) {
    }
}
