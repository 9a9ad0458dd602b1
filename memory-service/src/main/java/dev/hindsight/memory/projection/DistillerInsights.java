package dev.hindsight.memory.projection;

import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.events.insights.InsightStatus;
import dev.hindsight.events.insights.MessageSummarized;
import dev.hindsight.events.insights.RubricScore;
import dev.hindsight.events.insights.SessionSummarized;
import dev.hindsight.events.insights.TraceJudged;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.memory.work.MemoryWorker;
import dev.hindsight.platform.consumer.DeadLetters;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.consumer.LedgeredProjection;
import dev.hindsight.platform.consumer.TransactionalBatches.Consumed;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Takes evaluation-service's session summaries and QA verdicts from hindsight.insights.v1 into the sessions the
 * distiller reads (a failed summary or verdict counts as "done": distillation stops waiting for it), and schedules an
 * outcome signal for a completed verdict.
 */
@Singleton
class DistillerInsights extends LedgeredProjection<InsightEvent> {

    static final String CONSUMER = "memory.insights";

    private static final String SUMMARY = """
            INSERT INTO tracked_session (tenant_id, session_id, summary, summary_done) VALUES ($1, $2, $3, true)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET summary = EXCLUDED.summary, summary_done = true""";
    private static final String VERDICT = """
            INSERT INTO tracked_session (tenant_id, session_id, judge_score, judge_rubric, judge_done)
            VALUES ($1, $2, $3, $4, true)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET judge_score = EXCLUDED.judge_score,
                judge_rubric = EXCLUDED.judge_rubric, judge_done = true""";
    private static final String JOB = """
            INSERT INTO memory_job (tenant_id, session_id, kind, due_at) VALUES ($1, $2, 'qa_judge', $3)
            ON CONFLICT DO NOTHING""";

    private final MemoryConfig config;

    public DistillerInsights(Pool pool, DeadLetters deadLetters, ErasureLog erasures, MemoryWorker worker, MemoryConfig config) {
        super(pool, deadLetters, erasures, "insights", CONSUMER, InsightEvent.class, InsightEvent::getHeader);
        this.config = config;
        wakeAfterCommit(worker::wake);
    }

    @Incoming("insights")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return process(records);
    }

    @Override
    protected Uni<Void> write(SqlClient tx, List<Consumed<InsightEvent>> events) {
        List<Tuple> summaries = new ArrayList<>();
        List<Tuple> verdicts = new ArrayList<>();
        List<Tuple> jobs = new ArrayList<>();
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        for (Consumed<InsightEvent> consumed : events) {
            InsightEvent event = consumed.envelope();
            TenantId tenant = TenantId.of(event.getHeader().getTenantId());
            String session = event.getSessionId();
            Object payload = event.getPayload();
            if (payload instanceof SessionSummarized s) {
                summaries.add(Tuple.from(Arrays.asList(tenant.value(), session,
                        s.getStatus() == InsightStatus.COMPLETED ? s.getSummary() : null)));
            } else if (payload instanceof TraceJudged j) {
                boolean judged = j.getStatus() == InsightStatus.COMPLETED && j.getOverallScore() != null;
                verdicts.add(Tuple.from(Arrays.asList(tenant.value(), session, judged ? j.getOverallScore() : null,
                        judged ? rubric(j) : null)));
                if (judged) {
                    jobs.add(Tuple.of(tenant.value(), session, now.plus(config.distill().outcomeDelay())));
                }
            } else if (!(payload instanceof MessageSummarized)) {
                throw new IllegalArgumentException("unknown insight payload " + payload.getClass().getName());
            }
        }
        return executeBatch(tx, SUMMARY, summaries)
                .chain(() -> executeBatch(tx, VERDICT, verdicts))
                .chain(() -> executeBatch(tx, JOB, jobs));
    }

    private static JsonArray rubric(TraceJudged j) {
        JsonArray rubric = new JsonArray();
        for (RubricScore score : j.getRubric()) {
            rubric.add(new JsonObject().put("dimension", score.getDimension()).put("score", score.getScore())
                    .put("rationale", score.getRationale()));
        }
        return rubric;
    }
}
