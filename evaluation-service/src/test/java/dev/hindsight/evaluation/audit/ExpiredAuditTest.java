package dev.hindsight.evaluation.audit;

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
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The decision audit's state is kept 90 days by event time (design.md § Retention): older decision sets and signals
 * are deleted, younger ones stay, whatever tenant they belong to.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class ExpiredAuditTest {

    @Inject
    Pool pool;

    @Inject
    ExpiredAudit expired;

    @Test
    void decisionSetsAndSignalsPastNinetyDaysAreDeletedAndYoungerOnesStay() {
        String tenant = "audit-retention-" + UUID.randomUUID();
        Instant now = Instant.now();
        decisionSet(tenant, "old-set", now.minus(Duration.ofDays(91)));
        decisionSet(tenant, "young-set", now.minus(Duration.ofDays(89)));
        signal(tenant, "old-signal", now.minus(Duration.ofDays(91)));
        signal(tenant, "young-signal", now.minus(Duration.ofDays(89)));

        long deleted = expired.expire(now).await().atMost(Duration.ofSeconds(10));

        assertThat(deleted).isGreaterThanOrEqualTo(2);
        assertThat(ids("SELECT decision_set_id FROM decision_set_state WHERE tenant_id = $1", tenant))
                .containsExactly("young-set");
        assertThat(ids("SELECT message_id FROM behavior_signal WHERE tenant_id = $1", tenant))
                .containsExactly("young-signal");
        // The young rows go too: the shadow evaluator of the other tests must not meet them.
        pool.preparedQuery("DELETE FROM decision_set_state WHERE tenant_id = $1").execute(Tuple.of(tenant))
                .chain(() -> pool.preparedQuery("DELETE FROM behavior_signal WHERE tenant_id = $1")
                        .execute(Tuple.of(tenant))).await().atMost(Duration.ofSeconds(10));
    }

    /** A decision set already evaluated (revision 1, no newer signal): one the shadow evaluator leaves alone. */
    private void decisionSet(String tenant, String id, Instant decidedAt) {
        pool.preparedQuery("""
                INSERT INTO decision_set_state (tenant_id, decision_set_id, message_id, session_id, decision_set,
                                                decided_at, published_revision)
                VALUES ($1, $2, $2, 'session', '{}'::jsonb, $3, 1)""")
                .execute(Tuple.of(tenant, id, OffsetDateTime.ofInstant(decidedAt, ZoneOffset.UTC)))
                .await().atMost(Duration.ofSeconds(10));
    }

    private void signal(String tenant, String messageId, Instant occurredAt) {
        pool.preparedQuery("""
                INSERT INTO behavior_signal (tenant_id, event_id, message_id, signal_type, occurred_at)
                VALUES ($1, $2, $3, 'TASK_COMPLETED', $4)""")
                .execute(Tuple.of(tenant, UUID.randomUUID(), messageId,
                        OffsetDateTime.ofInstant(occurredAt, ZoneOffset.UTC)))
                .await().atMost(Duration.ofSeconds(10));
    }

    private List<String> ids(String sql, String tenant) {
        List<String> found = new ArrayList<>();
        for (Row row : pool.preparedQuery(sql).execute(Tuple.of(tenant)).await().atMost(Duration.ofSeconds(10))) {
            found.add(row.getString(0));
        }
        return found;
    }
}
