package dev.hindsight.query.projection;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.events.spans.SpanEvent;
import dev.hindsight.events.spans.SpanEventRecorded;
import dev.hindsight.events.spans.SpanRecorded;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.query.change.Change;
import dev.hindsight.query.otel.SpanAssembly;
import dev.hindsight.query.otel.SpanFact;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Sessions from OpenTelemetry spans ({@code hindsight.spans.v1}, ADR 0012). Each span is kept as exported (a span
 * exported again is the same row); each trace is mapped to the session its spans name ({@link
 * SpanAssembly#sessionId}); and every session a batch touched is assembled again from all of its spans ({@link
 * SpanAssembly#assemble}), its messages replaced and its row rewritten. The session is a function of the set of its
 * spans, so arrival order, splits and re-exports change nothing.
 *
 * <p>A session can gather traces from several partitions (one trace per turn of a conversation), so two replicas
 * may assemble the same one at once: each transaction takes a transaction-scoped advisory lock per session, in one
 * order, before it reads the session's spans, and so reads every span committed before it.
 *
 * <p>A session assembled from spans belongs to its spans: assembling it replaces all of its messages. A producer
 * should not also send the same session id through the event API.
 */
@Singleton
public class SpanProjection extends ReadModelProjection<SpanEvent> {

    /** Written to a span-made session's attributes; what tells it from one the event API made. */
    public static final String SOURCE = "opentelemetry";

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String INSERT_SPANS = """
            INSERT INTO {rm}.otel_span (tenant_id, trace_id, span_id, parent_span_id, name, kind, convention,
                                        start_unix_nano, end_unix_nano, status_code, status_message, attributes,
                                        events, resource_attributes, scope_name, truncated, event_id, recorded_at)
            SELECT tenant_id, trace_id, span_id, parent_span_id, name, kind, convention, start_unix_nano,
                   end_unix_nano, status_code, status_message, attributes::jsonb, events::jsonb,
                   resource_attributes::jsonb, scope_name, truncated::jsonb, event_id, recorded_at
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                        $8::bigint[], $9::bigint[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
                        $15::text[], $16::text[], $17::uuid[], $18::timestamptz[])
                AS s(tenant_id, trace_id, span_id, parent_span_id, name, kind, convention, start_unix_nano,
                     end_unix_nano, status_code, status_message, attributes, events, resource_attributes, scope_name,
                     truncated, event_id, recorded_at)
            ON CONFLICT (tenant_id, trace_id, span_id) DO NOTHING""";

    private static final String SPAN_COLUMNS = """
            s.tenant_id, s.trace_id, s.span_id, s.parent_span_id, s.name, s.convention, s.start_unix_nano,
            s.end_unix_nano, s.status_code, s.status_message, s.attributes::text AS attributes,
            s.events::text AS events, s.resource_attributes::text AS resource_attributes, s.recorded_at""";

    /** The touched traces' spans, with the session each trace was in before this batch (null for a new trace). */
    private static final String TRACES = "SELECT t.session_id AS previous_session, " + SPAN_COLUMNS + """

            FROM unnest($1::text[], $2::text[]) AS u(tenant_id, trace_id)
            JOIN {rm}.otel_span s USING (tenant_id, trace_id)
            LEFT JOIN {rm}.otel_trace t USING (tenant_id, trace_id)""";

    private static final String MAP_TRACES = """
            INSERT INTO {rm}.otel_trace (tenant_id, trace_id, session_id)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
            ON CONFLICT (tenant_id, trace_id) DO UPDATE SET session_id = EXCLUDED.session_id""";

    // Sorted by the lock's key, so that two transactions wanting the same sessions take them in the same order. The
    // key includes the schema: a rebuild filling the next generation does not wait for the live projection.
    private static final String LOCK_SESSIONS = """
            SELECT pg_advisory_xact_lock(k) FROM (
                SELECT DISTINCT hashtextextended($3 || '/' || tenant_id || '/' || session_id, 0) AS k
                FROM unnest($1::text[], $2::text[]) AS u(tenant_id, session_id) ORDER BY 1) AS keys""";

    private static final String SESSION_SPANS = "SELECT t.session_id, " + SPAN_COLUMNS + """

            FROM unnest($1::text[], $2::text[]) AS u(tenant_id, session_id)
            JOIN {rm}.otel_trace t USING (tenant_id, session_id)
            JOIN {rm}.otel_span s ON s.tenant_id = t.tenant_id AND s.trace_id = t.trace_id""";

    private static final String DELETE_MESSAGES = """
            DELETE FROM {rm}.message m USING unnest($1::text[], $2::text[]) AS u(tenant_id, session_id)
            WHERE m.tenant_id = u.tenant_id AND m.session_id = u.session_id""";

    private static final String INSERT_MESSAGES = """
            INSERT INTO {rm}.message (tenant_id, session_id, message_index, role, content, occurred_at, thinking_steps,
                                      event_id, input_tokens, output_tokens, latency_ms, model)
            SELECT tenant_id, session_id, message_index, role, content, occurred_at, thinking_steps::jsonb, event_id,
                   input_tokens, output_tokens, latency_ms, model
            FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::timestamptz[], $7::text[],
                        $8::uuid[], $9::bigint[], $10::bigint[], $11::bigint[], $12::text[])
                AS m(tenant_id, session_id, message_index, role, content, occurred_at, thinking_steps, event_id,
                     input_tokens, output_tokens, latency_ms, model)""";

    private static final String UPSERT_SESSIONS = """
            INSERT INTO {rm}.session (tenant_id, session_id, kind, started_at, model, attributes, labels,
                                      total_messages, last_event_at, listed_at)
            SELECT tenant_id, session_id, 'chat', started_at, model, attributes::jsonb, labels::jsonb, total_messages,
                   last_event_at, started_at
            FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::int[],
                        $8::timestamptz[])
                AS s(tenant_id, session_id, started_at, model, attributes, labels, total_messages, last_event_at)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                kind = 'chat', started_at = EXCLUDED.started_at, model = EXCLUDED.model,
                attributes = EXCLUDED.attributes, labels = EXCLUDED.labels,
                total_messages = EXCLUDED.total_messages, listed_at = EXCLUDED.listed_at,
                last_event_at = GREATEST({rm}.session.last_event_at, EXCLUDED.last_event_at)""";

    /** A session whose every trace moved to another session (a conversation id seen late) is gone. */
    private static final String DELETE_SESSIONS = """
            DELETE FROM {rm}.session s USING unnest($1::text[], $2::text[]) AS u(tenant_id, session_id)
            WHERE s.tenant_id = u.tenant_id AND s.session_id = u.session_id
              AND s.attributes ->> 'source' = '""" + SOURCE + "'";

    private static final String SESSIONS_OF_TRACES = """
            SELECT DISTINCT t.tenant_id, t.session_id
            FROM unnest($1::text[], $2::text[]) AS u(tenant_id, trace_id)
            JOIN {rm}.otel_trace t USING (tenant_id, trace_id)""";

    public SpanProjection(Writes writes) {
        super(writes, "spans", "query.spans", SpanEvent.class, SpanEvent::getHeader);
    }

    @Incoming("spans")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return live(records);
    }

    @Override
    protected Uni<Void> write(SqlClient tx, ReadModel model, List<Projected<SpanEvent>> events) {
        SpanColumns spans = new SpanColumns(events.size());
        Set<Key> traces = new LinkedHashSet<>();
        for (Projected<SpanEvent> projected : events) {
            SpanEvent event = projected.envelope();
            spans.add(event);
            traces.add(new Key(event.getHeader().getTenantId(), event.getTraceId()));
        }
        return tx.preparedQuery(model.sql(INSERT_SPANS)).execute(spans.tuple())
                .chain(() -> tx.preparedQuery(model.sql(TRACES)).execute(Key.tuple(traces)))
                .chain(rows -> mapTraces(tx, model, rows))
                .chain(sessions -> assemble(tx, model, sessions));
    }

    /**
     * Maps each touched trace to the session its spans now name; yields the sessions to assemble again: those the
     * traces are in now, and those they left.
     */
    private static Uni<Set<Key>> mapTraces(SqlClient tx, ReadModel model, RowSet<Row> rows) {
        Map<Key, List<SpanFact>> byTrace = new LinkedHashMap<>();
        Map<Key, String> previous = new HashMap<>();
        for (Row row : rows) {
            Key trace = new Key(row.getString("tenant_id"), row.getString("trace_id"));
            byTrace.computeIfAbsent(trace, t -> new ArrayList<>()).add(fact(row));
            previous.put(trace, row.getString("previous_session"));
        }
        Set<Key> sessions = new TreeSet<>(Key.ORDER);
        List<String> tenants = new ArrayList<>();
        List<String> traceIds = new ArrayList<>();
        List<String> sessionIds = new ArrayList<>();
        byTrace.forEach((trace, facts) -> {
            String session = SpanAssembly.sessionId(facts);
            String before = previous.get(trace);
            sessions.add(new Key(trace.tenant(), session));
            if (before != null && !before.equals(session)) {
                sessions.add(new Key(trace.tenant(), before));
            }
            if (!session.equals(before)) {
                tenants.add(trace.tenant());
                traceIds.add(trace.id());
                sessionIds.add(session);
            }
        });
        Uni<Void> mapped = tenants.isEmpty() ? Uni.createFrom().voidItem()
                : tx.preparedQuery(model.sql(MAP_TRACES)).execute(Tuple.of(tenants.toArray(new String[0]),
                        traceIds.toArray(new String[0]), sessionIds.toArray(new String[0]))).replaceWithVoid();
        return mapped.replaceWith(sessions);
    }

    private static Uni<Void> assemble(SqlClient tx, ReadModel model, Set<Key> sessions) {
        if (sessions.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Tuple keys = Key.tuple(sessions);
        return tx.preparedQuery(model.sql(LOCK_SESSIONS))
                .execute(Tuple.of(keys.getValue(0), keys.getValue(1), model.schema()))
                .chain(() -> tx.preparedQuery(model.sql(SESSION_SPANS)).execute(keys))
                .chain(rows -> {
                    Map<Key, List<SpanFact>> bySession = new LinkedHashMap<>();
                    Map<Key, Instant> lastRecorded = new HashMap<>();
                    for (Row row : rows) {
                        Key session = new Key(row.getString("tenant_id"), row.getString("session_id"));
                        bySession.computeIfAbsent(session, s -> new ArrayList<>()).add(fact(row));
                        lastRecorded.merge(session, row.getOffsetDateTime("recorded_at").toInstant(),
                                (a, b) -> a.isAfter(b) ? a : b);
                    }
                    SessionColumns written = new SessionColumns();
                    MessageColumns messages = new MessageColumns();
                    Set<Key> gone = new LinkedHashSet<>();
                    for (Key session : sessions) {
                        List<SpanFact> facts = bySession.get(session);
                        if (facts == null) {
                            gone.add(session);
                            continue;
                        }
                        SpanAssembly.Session assembled = SpanAssembly.assemble(session.id(), facts);
                        written.add(session.tenant(), assembled, lastRecorded.get(session));
                        assembled.messages().forEach(m -> messages.add(session.tenant(), assembled, m));
                    }
                    Uni<Void> chain = tx.preparedQuery(model.sql(DELETE_MESSAGES)).execute(keys).replaceWithVoid();
                    if (messages.size() > 0) {
                        chain = chain.chain(() -> tx.preparedQuery(model.sql(INSERT_MESSAGES))
                                .execute(messages.tuple()).replaceWithVoid());
                    }
                    if (written.size() > 0) {
                        chain = chain.chain(() -> tx.preparedQuery(model.sql(UPSERT_SESSIONS))
                                .execute(written.tuple()).replaceWithVoid());
                    }
                    if (!gone.isEmpty()) {
                        chain = chain.chain(() -> tx.preparedQuery(model.sql(DELETE_SESSIONS))
                                .execute(Key.tuple(gone)).replaceWithVoid());
                    }
                    return chain;
                });
    }

    /**
     * The sessions the batch's traces are in once it applied, and each trace's own id (a session it may have left
     * when a conversation id arrived late): announcing more than changed is harmless.
     */
    @Override
    protected Uni<List<Change>> changes(SqlClient tx, ReadModel model, List<SpanEvent> envelopes) {
        Set<Key> traces = new LinkedHashSet<>();
        Instant at = Instant.EPOCH;
        for (SpanEvent event : envelopes) {
            traces.add(new Key(event.getHeader().getTenantId(), event.getTraceId()));
            at = event.getHeader().getRecordedAt().isAfter(at) ? event.getHeader().getRecordedAt() : at;
        }
        Instant last = at;
        return tx.preparedQuery(model.sql(SESSIONS_OF_TRACES)).execute(Key.tuple(traces)).map(rows -> {
            Set<Key> sessions = new LinkedHashSet<>();
            rows.forEach(row -> sessions.add(new Key(row.getString("tenant_id"), row.getString("session_id"))));
            sessions.addAll(traces);
            return sessions.stream().map(s -> new Change(s.tenant(), "session", s.id(), last)).toList();
        });
    }

    /** A tenant's trace or session. */
    private record Key(String tenant, String id) {

        static final java.util.Comparator<Key> ORDER = java.util.Comparator.comparing(Key::tenant)
                .thenComparing(Key::id);

        static Tuple tuple(Iterable<Key> keys) {
            List<String> tenants = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            keys.forEach(k -> {
                tenants.add(k.tenant());
                ids.add(k.id());
            });
            return Tuple.of(tenants.toArray(new String[0]), ids.toArray(new String[0]));
        }
    }

    private static SpanFact fact(Row row) {
        List<SpanFact.Event> events = new ArrayList<>();
        for (JsonNode event : tree(row.getString("events"))) {
            events.add(new SpanFact.Event(event.path("name").asText(), event.path("time_unix_nano").asLong(),
                    event.path("attributes")));
        }
        return new SpanFact(row.getString("trace_id"), row.getString("span_id"), row.getString("parent_span_id"),
                row.getString("name"), row.getString("convention"), row.getLong("start_unix_nano"),
                row.getLong("end_unix_nano"), row.getString("status_code"), row.getString("status_message"),
                tree(row.getString("attributes")), events, tree(row.getString("resource_attributes")));
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored span column is not JSON", e);
        }
    }

    private static OffsetDateTime at(long unixNanos) {
        return Json.utc(Instant.ofEpochSecond(0, unixNanos));
    }

    /** A batch's spans as one array per column, for {@link #INSERT_SPANS}. */
    private static final class SpanColumns {
        private final List<List<Object>> columns = new ArrayList<>();

        SpanColumns(int capacity) {
            for (int i = 0; i < 18; i++) {
                columns.add(new ArrayList<>(capacity));
            }
        }

        void add(SpanEvent event) {
            SpanRecorded span = (SpanRecorded) event.getPayload();
            ArrayNode events = JSON.createArrayNode();
            for (SpanEventRecorded recorded : span.getEvents()) {
                ObjectNode node = events.addObject().put("name", recorded.getName())
                        .put("time_unix_nano", recorded.getTimeUnixNano());
                node.set("attributes", tree(recorded.getAttributes()));
            }
            List<Object> row = Arrays.asList(event.getHeader().getTenantId(), event.getTraceId(), span.getSpanId(),
                    span.getParentSpanId(), span.getName(), span.getKind(), span.getConvention().name(),
                    span.getStartTimeUnixNano(), span.getEndTimeUnixNano(), span.getStatusCode(),
                    span.getStatusMessage(), span.getAttributes(), events.toString(), span.getResourceAttributes(),
                    span.getScopeName(), new JsonArray(new ArrayList<>(span.getTruncated())).encode(),
                    event.getHeader().getEventId(), Json.utc(event.getHeader().getRecordedAt()));
            for (int i = 0; i < row.size(); i++) {
                columns.get(i).add(row.get(i));
            }
        }

        Tuple tuple() {
            Object[] arrays = {strings(0), strings(1), strings(2), strings(3), strings(4), strings(5), strings(6),
                    columns.get(7).toArray(new Long[0]), columns.get(8).toArray(new Long[0]), strings(9), strings(10),
                    strings(11), strings(12), strings(13), strings(14), strings(15),
                    columns.get(16).toArray(new UUID[0]), columns.get(17).toArray(new OffsetDateTime[0])};
            return Tuple.from(arrays);
        }

        private String[] strings(int column) {
            return columns.get(column).toArray(new String[0]);
        }
    }

    /** The assembled sessions' rows, for {@link #UPSERT_SESSIONS}. */
    private static final class SessionColumns {
        private final List<String> tenants = new ArrayList<>();
        private final List<String> ids = new ArrayList<>();
        private final List<OffsetDateTime> started = new ArrayList<>();
        private final List<String> models = new ArrayList<>();
        private final List<String> attributes = new ArrayList<>();
        private final List<String> labels = new ArrayList<>();
        private final List<Integer> totals = new ArrayList<>();
        private final List<OffsetDateTime> lastEvents = new ArrayList<>();

        int size() {
            return ids.size();
        }

        void add(String tenant, SpanAssembly.Session session, Instant lastRecorded) {
            tenants.add(tenant);
            ids.add(session.sessionId());
            started.add(at(session.startedNanos()));
            models.add(session.model());
            attributes.add(Json.withoutNulls(new JsonObject().put("source", SOURCE).put("agent", session.agent())
                    .put("model", session.model())).encode());
            labels.add(new JsonObject(new HashMap<>(session.labels())).encode());
            totals.add(session.messages().size());
            lastEvents.add(Json.utc(lastRecorded));
        }

        Tuple tuple() {
            return Tuple.from(Arrays.asList(tenants.toArray(new String[0]), ids.toArray(new String[0]),
                    started.toArray(new OffsetDateTime[0]), models.toArray(new String[0]),
                    attributes.toArray(new String[0]), labels.toArray(new String[0]), totals.toArray(new Integer[0]),
                    lastEvents.toArray(new OffsetDateTime[0])));
        }
    }

    /** The assembled sessions' messages, with their steps as every session's are stored, for {@link #INSERT_MESSAGES}. */
    private static final class MessageColumns {
        private final List<String> tenants = new ArrayList<>();
        private final List<String> sessions = new ArrayList<>();
        private final List<Integer> indexes = new ArrayList<>();
        private final List<String> roles = new ArrayList<>();
        private final List<String> contents = new ArrayList<>();
        private final List<OffsetDateTime> occurred = new ArrayList<>();
        private final List<String> steps = new ArrayList<>();
        private final List<UUID> ids = new ArrayList<>();
        private final List<Long> inputTokens = new ArrayList<>();
        private final List<Long> outputTokens = new ArrayList<>();
        private final List<Long> latencies = new ArrayList<>();
        private final List<String> models = new ArrayList<>();

        int size() {
            return ids.size();
        }

        void add(String tenant, SpanAssembly.Session session, SpanAssembly.Message message) {
            JsonArray thinking = new JsonArray();
            for (SpanAssembly.Step step : message.steps()) {
                thinking.add(Json.withoutNulls(new JsonObject()
                        .put("step_order", thinking.size())
                        .put("step_type", step.type())
                        .put("content", step.content())
                        .put("tool_name", step.toolName())
                        .put("tool_arguments", Json.value(step.toolArguments()))
                        .put("tool_result", step.toolResult())
                        .put("tool_error", step.toolError())));
            }
            tenants.add(tenant);
            sessions.add(session.sessionId());
            indexes.add(message.index());
            roles.add(message.role());
            contents.add(message.content());
            occurred.add(at(message.atNanos() > 0 ? message.atNanos() : session.startedNanos()));
            steps.add(thinking.encode());
            // A row, not an event: the id names the message's place, the same however often it is assembled.
            ids.add(UUID.nameUUIDFromBytes(("otlp-message\u001f" + tenant + '\u001f' + session.sessionId() + '\u001f'
                    + message.index()).getBytes(StandardCharsets.UTF_8)));
            inputTokens.add(message.inputTokens());
            outputTokens.add(message.outputTokens());
            latencies.add(message.latencyMillis());
            models.add(message.model());
        }

        Tuple tuple() {
            return Tuple.from(Arrays.asList(tenants.toArray(new String[0]), sessions.toArray(new String[0]),
                    indexes.toArray(new Integer[0]), roles.toArray(new String[0]), contents.toArray(new String[0]),
                    occurred.toArray(new OffsetDateTime[0]), steps.toArray(new String[0]), ids.toArray(new UUID[0]),
                    inputTokens.toArray(new Long[0]), outputTokens.toArray(new Long[0]), latencies.toArray(new Long[0]),
                    models.toArray(new String[0])));
        }
    }
}
