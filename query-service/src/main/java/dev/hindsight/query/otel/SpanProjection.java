package dev.hindsight.query.otel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.events.spans.SpanEvent;
import dev.hindsight.events.spans.SpanEventRecorded;
import dev.hindsight.events.spans.SpanRecorded;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Change;
import dev.hindsight.query.readmodel.Json;
import dev.hindsight.query.readmodel.ReadModel;
import dev.hindsight.query.readmodel.ReadModelProjection;
import dev.hindsight.query.session.AssembledSessions;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
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
 * Sessions from OpenTelemetry spans ({@code hindsight.spans.v1}, ADR 0012) and the GenAI events sent as log records
 * beside them (ADR 0025, {@link SpanLogs}). Each span and event is kept as exported (one exported again is the same
 * row); each trace is mapped to the session its spans name ({@link
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
class SpanProjection extends ReadModelProjection<SpanEvent> {

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
        List<SpanEvent> logs = new ArrayList<>();
        Set<Key> traces = new LinkedHashSet<>();
        for (Projected<SpanEvent> projected : events) {
            SpanEvent event = projected.envelope();
            if (event.getPayload() instanceof SpanRecorded) {
                spans.add(event);
            } else {
                logs.add(event);
            }
            traces.add(new Key(TenantId.of(event.getHeader().getTenantId()), event.getTraceId()));
        }
        Uni<Void> spansStored = spans.isEmpty() ? Uni.createFrom().voidItem()
                : tx.preparedQuery(model.sql(INSERT_SPANS)).execute(spans.tuple()).replaceWithVoid();
        return spansStored.chain(() -> SpanLogs.insert(tx, model, logs))
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
            Key trace = new Key(TenantId.of(row.getString("tenant_id")), row.getString("trace_id"));
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
                tenants.add(trace.tenant().value());
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
                .chain(() -> SpanLogs.ofSessions(tx, model, keys))
                .chain(logs -> tx.preparedQuery(model.sql(SESSION_SPANS)).execute(keys).chain(rows -> {
                    Map<Key, List<SpanFact>> bySession = new LinkedHashMap<>();
                    Map<Key, Instant> lastRecorded = new HashMap<>();
                    for (Row row : rows) {
                        Key session = new Key(TenantId.of(row.getString("tenant_id")), row.getString("session_id"));
                        SpanFact span = SpanLogs.joined(fact(row), logs.get(new SpanLogs.SpanKey(session.tenant(),
                                row.getString("trace_id"), row.getString("span_id"))));
                        bySession.computeIfAbsent(session, s -> new ArrayList<>()).add(span);
                        lastRecorded.merge(session, row.getOffsetDateTime("recorded_at").toInstant(),
                                (a, b) -> a.isAfter(b) ? a : b);
                    }
                    List<AssembledSessions.Session> assembled = new ArrayList<>();
                    List<AssembledSessions.Key> gone = new ArrayList<>();
                    for (Key session : sessions) {
                        List<SpanFact> facts = bySession.get(session);
                        if (facts == null) {
                            gone.add(new AssembledSessions.Key(session.tenant(), session.id()));
                        } else {
                            assembled.add(session(session, SpanAssembly.assemble(session.id(), facts),
                                    lastRecorded.get(session)));
                        }
                    }
                    return AssembledSessions.replace(tx, model, assembled, gone);
                }));
    }

    /** A session assembled from its spans, as the session read model stores it. */
    private static AssembledSessions.Session session(Key key, SpanAssembly.Session session, Instant lastRecorded) {
        List<AssembledSessions.Agent> agents = session.agents().stream().map(agent -> new AssembledSessions.Agent(
                agent.agentId(), agent.parentAgentId(), agent.name(), agent.description(), at(agent.startNanos()),
                at(agent.endNanos()), messages(agent.messages(), agent.startNanos()))).toList();
        return new AssembledSessions.Session(new AssembledSessions.Key(key.tenant(), key.id()),
                at(session.startedNanos()), session.model(), session.agent(), session.provider(), session.labels(),
                Json.utc(lastRecorded), messages(session.messages(), session.startedNanos()), agents,
                session.subject());
    }

    private static List<AssembledSessions.Message> messages(List<SpanAssembly.Message> messages, long started) {
        return messages.stream().map(m -> {
            SpanAssembly.Usage u = m.usage();
            return new AssembledSessions.Message(m.index(), m.role(), m.content(),
                    at(m.atNanos() > 0 ? m.atNanos() : started),
                    m.steps().stream().map(step -> new AssembledSessions.Step(step.type(), step.content(),
                            step.toolName(), step.toolArguments(), step.toolResult(), step.toolError(),
                            step.agentId(), step.memoryOperation())).toList(),
                    u == null ? null : new AssembledSessions.Usage(u.inputTokens(), u.outputTokens(),
                            u.cacheReadInputTokens(), u.cacheWriteInputTokens(), u.reasoningOutputTokens(),
                            u.latencyMillis(), u.timeToFirstTokenMillis(), u.model()),
                    m.systemInstructions(), m.toolDefinitions());
        }).toList();
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
            traces.add(new Key(TenantId.of(event.getHeader().getTenantId()), event.getTraceId()));
            at = event.getHeader().getRecordedAt().isAfter(at) ? event.getHeader().getRecordedAt() : at;
        }
        Instant last = at;
        return tx.preparedQuery(model.sql(SESSIONS_OF_TRACES)).execute(Key.tuple(traces)).map(rows -> {
            Set<Key> sessions = new LinkedHashSet<>();
            rows.forEach(row -> sessions.add(new Key(TenantId.of(row.getString("tenant_id")),
                    row.getString("session_id"))));
            sessions.addAll(traces);
            return sessions.stream().map(s -> new Change(s.tenant(), "session", s.id(), last)).toList();
        });
    }

    /** A tenant's trace or session. */
    private record Key(TenantId tenant, String id) {

        static final java.util.Comparator<Key> ORDER = java.util.Comparator.comparing((Key k) -> k.tenant().value())
                .thenComparing(Key::id);

        static Tuple tuple(Iterable<Key> keys) {
            List<String> tenants = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            keys.forEach(k -> {
                tenants.add(k.tenant().value());
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

        boolean isEmpty() {
            return columns.get(0).isEmpty();
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

}
