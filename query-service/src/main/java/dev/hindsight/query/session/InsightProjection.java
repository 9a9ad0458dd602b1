package dev.hindsight.query.session;

import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.events.insights.InsightStatus;
import dev.hindsight.events.insights.MessageSummarized;
import dev.hindsight.events.insights.RubricScore;
import dev.hindsight.events.insights.SessionSummarized;
import dev.hindsight.events.insights.TraceJudged;
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
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * evaluation-service's summaries and QA verdicts ({@code hindsight.insights.v1}) on the sessions they judge. They are
 * events, so a rebuild shows the same judgements without asking a model again.
 */
@Singleton
class InsightProjection extends ReadModelProjection<InsightEvent> {

    private static final String MESSAGE_SUMMARY = """
            INSERT INTO {rm}.message_summary (tenant_id, session_id, message_index, status, summary, failure_reason,
                                              summarizer, produced_at, event_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT (tenant_id, session_id, message_index) DO UPDATE SET
                status = EXCLUDED.status, summary = EXCLUDED.summary, failure_reason = EXCLUDED.failure_reason,
                summarizer = EXCLUDED.summarizer, produced_at = EXCLUDED.produced_at, event_id = EXCLUDED.event_id
            WHERE {rm}.message_summary.produced_at <= EXCLUDED.produced_at""";
    // The session row may not be projected yet (another topic): create it with what is known.
    private static final String SESSION_SUMMARY = """
            INSERT INTO {rm}.session (tenant_id, session_id, session_summary, summary_status, last_event_at, listed_at)
            VALUES ($1, $2, $3, $4, $5, $5)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                session_summary = EXCLUDED.session_summary, summary_status = EXCLUDED.summary_status""";
    private static final String TRACE_JUDGED = """
            INSERT INTO {rm}.session (tenant_id, session_id, qa_status, qa_score, qa_rubric, qa_reason, qa_judged_at,
                                      qa_judge, last_event_at, listed_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7, $7)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                qa_status = EXCLUDED.qa_status, qa_score = EXCLUDED.qa_score, qa_rubric = EXCLUDED.qa_rubric,
                qa_reason = EXCLUDED.qa_reason, qa_judged_at = EXCLUDED.qa_judged_at, qa_judge = EXCLUDED.qa_judge""";

    public InsightProjection(Writes writes) {
        super(writes, "insights", "query.insights", InsightEvent.class, InsightEvent::getHeader);
    }

    @Incoming("insights")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return live(records);
    }

    @Override
    protected List<Change> changes(List<InsightEvent> envelopes) {
        // A message summary changes what its session shows, but is not announced on the live stream.
        return envelopes.stream()
                .map(e -> new Change(TenantId.of(e.getHeader().getTenantId()),
                        e.getPayload() instanceof MessageSummarized ? Change.MESSAGE_SUMMARIZED
                                : e.getPayload() instanceof TraceJudged ? "trace_judged" : "session_summarized",
                        e.getSessionId(), e.getHeader().getRecordedAt()))
                .toList();
    }

    @Override
    protected Uni<Void> write(SqlClient tx, ReadModel model, List<Projected<InsightEvent>> events) {
        List<Tuple> messages = new ArrayList<>();
        List<Tuple> sessions = new ArrayList<>();
        List<Tuple> judged = new ArrayList<>();
        for (Projected<InsightEvent> projected : events) {
            InsightEvent event = projected.envelope();
            TenantId tenant = TenantId.of(event.getHeader().getTenantId());
            Object payload = event.getPayload();
            if (payload instanceof MessageSummarized m) {
                messages.add(Tuple.from(Arrays.asList(tenant.value(), event.getSessionId(), m.getMessageIndex(),
                        status(m.getStatus()), m.getSummary(), m.getFailureReason(), m.getSummarizer(),
                        Json.utc(m.getProducedAt()), event.getHeader().getEventId())));
            } else if (payload instanceof SessionSummarized s) {
                sessions.add(Tuple.from(Arrays.asList(tenant.value(), event.getSessionId(), s.getSummary(),
                        status(s.getStatus()), Json.utc(s.getProducedAt()))));
            } else if (payload instanceof TraceJudged t) {
                JsonObject rubric = null;
                if (t.getStatus() == InsightStatus.COMPLETED) {
                    rubric = new JsonObject();
                    for (RubricScore score : t.getRubric()) {
                        rubric.put(score.getDimension(), Json.withoutNulls(new JsonObject()
                                .put("score", score.getScore())
                                .put("evidence_event_ids", new JsonArray(new ArrayList<>(score.getEvidenceEventIds())))
                                .put("rationale", score.getRationale())));
                    }
                }
                judged.add(Tuple.from(Arrays.asList(tenant.value(), event.getSessionId(), status(t.getStatus()),
                        t.getOverallScore() == null ? null : BigDecimal.valueOf(t.getOverallScore()), rubric,
                        t.getFailureReason(), Json.utc(t.getJudgedAt()), t.getJudge())));
            } else {
                throw new IllegalArgumentException("unknown insight " + payload.getClass().getName());
            }
        }
        return batch(tx, model.sql(MESSAGE_SUMMARY), messages)
                .chain(() -> batch(tx, model.sql(SESSION_SUMMARY), sessions))
                .chain(() -> batch(tx, model.sql(TRACE_JUDGED), judged));
    }

    private static String status(InsightStatus status) {
        return status.name().toLowerCase(Locale.ROOT);
    }

    private static Uni<Void> batch(SqlClient tx, String sql, List<Tuple> rows) {
        return rows.isEmpty() ? Uni.createFrom().voidItem() : tx.preparedQuery(sql).executeBatch(rows).replaceWithVoid();
    }
}
