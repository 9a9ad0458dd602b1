package dev.hindsight.memory.flow;

import static dev.hindsight.testing.TestTenants.TENANT_A;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryOrigin;
import dev.hindsight.events.memory.MemoryOutcome;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.memory.bank.MemoryEvents;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestDatabase;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTopics;
import io.micrometer.core.instrument.Metrics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A consumer commits an event's offset only after the database transaction that applied it committed (design.md
 * § Delivery guarantees): with PostgreSQL refusing the service, an event is polled, fails, is retried, and its offset
 * stays uncommitted however long that lasts; once PostgreSQL is back the event is applied and only then committed.
 * Committing first would lose the event to a crash (or a kill) during the outage.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class UncommittedUntilAppliedTest {

    private static final String TOPIC = "hindsight.memory.v1";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    Embeddings embeddings;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String database;

    @ConfigProperty(name = "hindsight.memory-group")
    String group;

    @Test
    void anEventIsCommittedOnlyAfterItsTransactionCommittedHoweverLongTheDatabaseIsAway() {
        String name = database.substring(database.lastIndexOf('/') + 1);
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        UUID id = UUID.randomUUID();
        MemoryEvent event = MemoryEvents.event(TestEvents.header(TENANT_A.tenant(),
                        Instant.now().truncatedTo(ChronoUnit.MILLIS)), project, id,
                MemoryRecorded.newBuilder().setOrigin(MemoryOrigin.EXPLICIT).setTitle("Written during an outage")
                        .setContent("PostgreSQL refused the service while this was consumed.")
                        .setOutcome(MemoryOutcome.SUCCESS).setEmbedding(MemoryEvents.embedding(embeddings.preferred(),
                                embeddings.embed(embeddings.preferred(), "Written during an outage").await().atMost(WAIT)))
                        .setVia("rest").build());
        double failuresBefore = failures();
        RecordMetadata written;
        TopicPartition partition;
        TestDatabase.refuseConnections(name, true);
        try {
            written = TestTopics.write(TOPIC, id.toString(), event);
            partition = new TopicPartition(TOPIC, written.partition());
            // Polled and failing: the projection's retries are counted. They back off from 200 ms, doubling up to 10 s,
            // so eight of them span far more than the commit period: an offset acknowledged early is committed by now.
            await().atMost(WAIT).until(() -> failures() >= failuresBefore + 8);
            assertThat(TestTopics.committed(group, partition)).as("committed offset on %s while the event is unapplied",
                    partition).isLessThanOrEqualTo(written.offset());
        } finally {
            TestDatabase.refuseConnections(name, false);
        }

        await().atMost(WAIT).until(() -> given().header("Authorization", TENANT_A.bearer())
                .get("/v1/memories/{id}", id).statusCode() == 200);
        await().atMost(WAIT).until(() -> TestTopics.committed(group, partition) > written.offset());
    }

    /**
     * The service is left as it was found: ready. Its pool still holds connections PostgreSQL terminated, and a
     * readiness check can draw one of them; the next test must not.
     */
    @AfterEach
    void readyAgain() {
        await().atMost(WAIT).until(() -> given().get("/q/health/ready").statusCode() == 200);
    }

    private static double failures() {
        var counter = Metrics.globalRegistry.find("hindsight.consumer.apply.failures").tag("topic", TOPIC).counter();
        return counter == null ? 0 : counter.count();
    }
}
