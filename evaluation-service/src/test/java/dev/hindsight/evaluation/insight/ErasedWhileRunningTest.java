package dev.hindsight.evaluation.insight;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.testing.HindsightTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A job that is running when an erasure deletes its row (ADR 0028) finishes without writing what it produced to the
 * outbox: the erasure has deleted its session's unpublished events already, and nothing may add one afterwards.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class ErasedWhileRunningTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    InsightWorker worker;

    @Inject
    Pool pool;

    @Test
    void aJobWhoseRowWasErasedWhileItRanWritesNothingToTheOutbox() {
        // The relay publishes and deletes an outbox row within moments: a trigger of the test's keeps what was written.
        pool.query("CREATE TABLE outbox_written (tenant_id TEXT, record_key TEXT)").execute().await().atMost(WAIT);
        pool.query("""
                CREATE FUNCTION outbox_written() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO outbox_written VALUES (NEW.tenant_id, NEW.record_key);
                    RETURN NEW;
                END $$""").execute().await().atMost(WAIT);
        pool.query("""
                CREATE TRIGGER outbox_written AFTER INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_written()""")
                .execute().await().atMost(WAIT);
        try {
            TenantId tenant = TenantId.of("erased-while-running-" + UUID.randomUUID());
            running(tenant, "s-kept");
            running(tenant, "s-erased");
            // What an erasure leaves of a job that read its message before the erasure ran: its row is gone.
            execute("DELETE FROM insight_job WHERE tenant_id = $1 AND session_id = $2",
                    Tuple.of(tenant.value(), "s-erased"));

            worker.run(job(tenant, "s-kept")).await().atMost(WAIT);
            worker.run(job(tenant, "s-erased")).await().atMost(WAIT);

            assertThat(count("SELECT count(*) FROM outbox_written WHERE tenant_id = $1 AND record_key = $2",
                    Tuple.of(tenant.value(), "s-kept"))).isOne();
            assertThat(count("SELECT count(*) FROM insight_job WHERE tenant_id = $1 AND session_id = $2 "
                    + "AND state = 'done'", Tuple.of(tenant.value(), "s-kept"))).isOne();
            assertThat(count("SELECT count(*) FROM outbox_written WHERE tenant_id = $1 AND record_key = $2",
                    Tuple.of(tenant.value(), "s-erased"))).isZero();
            assertThat(count("SELECT count(*) FROM insight_job WHERE tenant_id = $1 AND session_id = $2",
                    Tuple.of(tenant.value(), "s-erased"))).isZero();
        } finally {
            pool.query("DROP TRIGGER outbox_written ON outbox").execute().await().atMost(WAIT);
            pool.query("DROP FUNCTION outbox_written()").execute().await().atMost(WAIT);
            pool.query("DROP TABLE outbox_written").execute().await().atMost(WAIT);
        }
    }

    /** An assistant message and its summary job, claimed by a worker whose lease runs for an hour. */
    private void running(TenantId tenant, String session) {
        execute("""
                INSERT INTO session_message (tenant_id, session_id, message_index, role, content, occurred_at)
                VALUES ($1, $2, 0, 'assistant', 'The build failed because the lock file was stale. Regenerate it.',
                        now())""", Tuple.of(tenant.value(), session));
        execute("""
                INSERT INTO insight_job (tenant_id, session_id, kind, message_index, state, attempts, lease_until)
                VALUES ($1, $2, 'message_summary', 0, 'running', 1, now() + interval '1 hour')""",
                Tuple.of(tenant.value(), session));
    }

    private static InsightJob job(TenantId tenant, String session) {
        return new InsightJob(tenant, session, InsightJob.Kind.MESSAGE_SUMMARY, 0, 1);
    }

    private void execute(String sql, Tuple args) {
        pool.preparedQuery(sql).execute(args).await().atMost(WAIT);
    }

    private long count(String sql, Tuple args) {
        return pool.preparedQuery(sql).execute(args).await().atMost(WAIT).iterator().next().getLong(0);
    }
}
