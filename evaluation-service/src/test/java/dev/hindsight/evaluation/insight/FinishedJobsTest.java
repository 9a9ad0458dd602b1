package dev.hindsight.evaluation.insight;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.HindsightTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class FinishedJobsTest {

    @Inject
    Pool pool;

    @Inject
    FinishedJobs finishedJobs;

    @Test
    void jobsFinishedBeforeTheCutoffAreDeletedAndUnfinishedOrRecentOnesStay() {
        String tenant = "prune-" + UUID.randomUUID();
        Instant now = Instant.now();
        job(tenant, "old-done", "done", now.minus(Duration.ofDays(8)), null);
        job(tenant, "old-failed", "failed", now.minus(Duration.ofDays(9)), null);
        job(tenant, "recent-done", "done", now.minus(Duration.ofDays(1)), null);
        // Started long ago and still running under a live lease: never deleted, whatever its age.
        job(tenant, "old-running", "running", null, now.plus(Duration.ofHours(1)));

        long deleted = finishedJobs.prune(now.minus(Duration.ofDays(7))).await().atMost(Duration.ofSeconds(10));

        assertThat(deleted).isGreaterThanOrEqualTo(2);
        assertThat(sessions(tenant)).containsExactlyInAnyOrder("recent-done", "old-running");
    }

    private void job(String tenant, String session, String state, Instant finishedAt, Instant leaseUntil) {
        pool.preparedQuery("""
                INSERT INTO insight_job (tenant_id, session_id, kind, state, created_at, finished_at, lease_until)
                VALUES ($1, $2, 'session_summary', $3, now() - interval '30 days', $4, $5)""")
                .execute(Tuple.of(tenant, session, state,
                        finishedAt == null ? null : java.time.OffsetDateTime.ofInstant(finishedAt, java.time.ZoneOffset.UTC),
                        leaseUntil == null ? null : java.time.OffsetDateTime.ofInstant(leaseUntil, java.time.ZoneOffset.UTC)))
                .await().atMost(Duration.ofSeconds(10));
    }

    private List<String> sessions(String tenant) {
        List<String> found = new ArrayList<>();
        for (Row row : pool.preparedQuery("SELECT session_id FROM insight_job WHERE tenant_id = $1")
                .execute(Tuple.of(tenant)).await().atMost(Duration.ofSeconds(10))) {
            found.add(row.getString(0));
        }
        return found;
    }
}
