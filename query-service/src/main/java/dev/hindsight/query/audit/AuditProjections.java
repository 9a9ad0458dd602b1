package dev.hindsight.query.audit;

import dev.hindsight.events.decisions.Decision;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.decisions.DecisionSetRecorded;
import dev.hindsight.events.signals.BehaviorSignalRecorded;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Change;
import dev.hindsight.query.readmodel.Json;
import dev.hindsight.query.readmodel.ReadModel;
import dev.hindsight.query.readmodel.ReadModelProjection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/** The audit events: decision sets and behaviour signals, each topic its own projection. */
final class AuditProjections {

    private AuditProjections() {
    }

    /** A decision as recorded (design.md § Decision sets; rule_signals and llm_confidence as JSON). */
    static JsonObject decision(Decision decision) {
        return Json.withoutNulls(new JsonObject()
                .put("version", decision.getVersion())
                .put("info_need_type", decision.getInfoNeedType())
                .put("decision_action", decision.getDecisionAction())
                .put("confidence_level", decision.getConfidenceLevel())
                .put("reasoning", decision.getReasoning())
                .put("rule_signals", Json.value(decision.getRuleSignals()))
                .put("llm_confidence", Json.value(decision.getLlmConfidence())));
    }

    /** A typed Avro record as JSON with its own field names; enums in lower case, nulls left out. */
    static JsonObject fields(SpecificRecord record) {
        JsonObject json = new JsonObject();
        for (Schema.Field field : record.getSchema().getFields()) {
            Object value = record.get(field.pos());
            if (value instanceof Enum<?> symbol) {
                value = symbol.name().toLowerCase(Locale.ROOT);
            } else if (value instanceof CharSequence text) {
                value = text.toString();
            }
            if (value != null) {
                json.put(field.name(), value);
            }
        }
        return json;
    }

    @Singleton
    public static class DecisionSets extends ReadModelProjection<DecisionEvent> {

        private static final String INSERT = """
                INSERT INTO {rm}.decision_set (tenant_id, decision_set_id, message_id, session_id, question_text,
                    question_hash, active_version, shadow_versions, active_decision, shadow_decisions,
                    context_snapshot, level, occurred_at, event_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
                ON CONFLICT (tenant_id, decision_set_id) DO NOTHING""";

        public DecisionSets(Writes writes) {
            super(writes, "decisions", "query.decisions", DecisionEvent.class, DecisionEvent::getHeader);
        }

        @Incoming("decisions")
        public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
            return live(records);
        }

        @Override
        protected List<Change> changes(List<DecisionEvent> envelopes) {
            return envelopes.stream().map(e -> new Change(TenantId.of(e.getHeader().getTenantId()),
                    "decision_set", ((DecisionSetRecorded) e.getPayload()).getDecisionSetId(),
                    e.getHeader().getRecordedAt())).toList();
        }

        @Override
        protected Uni<Void> write(SqlClient tx, ReadModel model, List<Projected<DecisionEvent>> events) {
            List<Tuple> rows = new ArrayList<>(events.size());
            for (Projected<DecisionEvent> projected : events) {
                DecisionEvent event = projected.envelope();
                DecisionSetRecorded set = (DecisionSetRecorded) event.getPayload();
                JsonArray shadows = new JsonArray();
                set.getShadowDecisions().forEach(d -> shadows.add(decision(d)));
                rows.add(Tuple.from(Arrays.asList(event.getHeader().getTenantId(), set.getDecisionSetId(),
                        set.getMessageId(), set.getSessionId(), set.getQuestionText(), set.getQuestionHash(),
                        set.getActiveVersion(), new JsonArray(new ArrayList<>(set.getShadowVersions())),
                        decision(set.getActiveDecision()), shadows, Json.object(set.getContextSnapshot()),
                        set.getLevel(), Json.utc(set.getTimestamp()), event.getHeader().getEventId())));
            }
            return tx.preparedQuery(model.sql(INSERT)).executeBatch(rows).replaceWithVoid();
        }
    }

    @Singleton
    public static class Signals extends ReadModelProjection<SignalEvent> {

        private static final String INSERT = """
                INSERT INTO {rm}.behavior_signal (tenant_id, event_id, message_id, session_id, signal_type,
                    signal_data, extra_data, level, occurred_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                ON CONFLICT (tenant_id, event_id) DO NOTHING""";

        public Signals(Writes writes) {
            super(writes, "signals", "query.signals", SignalEvent.class, SignalEvent::getHeader);
        }

        @Incoming("signals")
        public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
            return live(records);
        }

        @Override
        protected Uni<Void> write(SqlClient tx, ReadModel model, List<Projected<SignalEvent>> events) {
            List<Tuple> rows = new ArrayList<>(events.size());
            for (Projected<SignalEvent> projected : events) {
                SignalEvent event = projected.envelope();
                BehaviorSignalRecorded signal = (BehaviorSignalRecorded) event.getPayload();
                rows.add(Tuple.from(Arrays.asList(event.getHeader().getTenantId(), event.getHeader().getEventId(),
                        signal.getMessageId(), signal.getSessionId(),
                        signal.getSignalType().name().toLowerCase(Locale.ROOT),
                        fields((SpecificRecord) signal.getSignalData()), Json.object(signal.getExtraData()),
                        signal.getLevel(), Json.utc(signal.getTimestamp()))));
            }
            return tx.preparedQuery(model.sql(INSERT)).executeBatch(rows).replaceWithVoid();
        }
    }
}
