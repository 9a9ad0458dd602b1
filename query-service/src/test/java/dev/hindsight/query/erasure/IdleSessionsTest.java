package dev.hindsight.query.erasure;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.erasures.ErasureApplied;
import dev.hindsight.events.erasures.ErasureEvent;
import dev.hindsight.events.erasures.ErasureRequested;
import dev.hindsight.events.erasures.ErasureSelector;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestCrypto;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Retention of sessions (ADR 0029): with tenant-retained's sessions kept 30 days (the test profile), a session whose
 * last event was recorded 40 days ago is erased through its keys (every record of it on the log names a destroyed
 * key) and leaves the read model, while its tenant's recent session and another tenant's equally old one, which has
 * no age, are kept.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class IdleSessionsTest {

    private static final TestTenants WHO = TestTenants.RETAINED;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    IdleSessions retention;

    @Test
    void aSessionIdleLongerThanItsTenantsAgeIsErasedThroughItsKeysAndTheOthersAreKept() {
        Instant old = Instant.now().minus(40, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MILLIS);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String idle = "idle-" + UUID.randomUUID();
        String recent = "recent-" + UUID.randomUUID();
        String noAge = "no-age-" + UUID.randomUUID();
        SessionStarted chat = SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(old).build();
        TestEvents.sealedSessionRecordedAt(old, WHO.tenant(), idle, chat,
                TestEvents.message(0, "an old question", old));
        TestEvents.sealedSession(WHO.tenant(), recent, chat, TestEvents.message(0, "a new question", now));
        TestEvents.sealedSessionRecordedAt(old, TestTenants.TENANT_A.tenant(), noAge, chat,
                TestEvents.message(0, "an old question of a tenant without an age", old));
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(status(idle, WHO)).as("the idle session").isEqualTo(200);
            assertThat(status(recent, WHO)).as("the recent session").isEqualTo(200);
            assertThat(status(noAge, TestTenants.TENANT_A)).as("the other tenant's").isEqualTo(200);
        });

        int erased = retention.expire().await().atMost(Duration.ofSeconds(60));

        assertThat(erased).as("sessions erased by the round").isEqualTo(1);
        await("the erasure applied").atMost(WAIT).untilAsserted(() -> assertThat(status(idle, WHO)).isEqualTo(404));
        assertThat(status(recent, WHO)).as("the recent session").isEqualTo(200);
        assertThat(status(noAge, TestTenants.TENANT_A)).as("the other tenant's old session").isEqualTo(200);

        // On the erasure log: a RETENTION erasure of exactly the idle session, applied by query-service.
        ErasureEvent requested = erasures().stream()
                .filter(e -> e.getPayload() instanceof ErasureRequested r && r.getSessionIds().contains(idle))
                .findFirst().orElseThrow();
        ErasureRequested payload = (ErasureRequested) requested.getPayload();
        assertThat(payload.getSelector()).isEqualTo(ErasureSelector.RETENTION);
        assertThat(payload.getSessionIds()).containsExactly(idle);
        assertThat(payload.getDestroyedKeys()).as("keys destroyed").isNotEmpty();
        Optional<ErasureApplied> applied = await("query-service says it applied it").atMost(WAIT)
                .until(() -> erasures().stream().filter(e -> e.getErasureId().equals(requested.getErasureId()))
                        .map(ErasureEvent::getPayload).filter(ErasureApplied.class::isInstance)
                        .map(ErasureApplied.class::cast).findFirst(), Optional::isPresent);
        assertThat(applied.orElseThrow().getService()).isEqualTo("query-service");

        // On the reasoning topic: the idle session's records no longer open; the recent one's do.
        for (ConsumerRecord<String, byte[]> record : records(idle)) {
            assertThat(TestCrypto.erased(TestKafka.bootstrapServers(), TestEvents.REASONING, record.value()))
                    .as("a record of the idle session that a key still opens").isTrue();
        }
        for (ConsumerRecord<String, byte[]> record : records(recent)) {
            assertThat(TestCrypto.erased(TestKafka.bootstrapServers(), TestEvents.REASONING, record.value()))
                    .as("a record of the recent session").isFalse();
        }

        // A second round finds nothing more to erase.
        assertThat(retention.expire().await().atMost(Duration.ofSeconds(60))).isZero();
    }

    private static List<ErasureEvent> erasures() {
        return TestTopics.readAll(TestKafka.bootstrapServers(), HindsightTopic.ERASURES.defaultName(),
                ErasureEvent.class);
    }

    private static List<ConsumerRecord<String, byte[]>> records(String session) {
        List<ConsumerRecord<String, byte[]>> records = TestTopics.readRaw(TestKafka.bootstrapServers(),
                TestEvents.REASONING, r -> session.equals(r.key()), 2, Duration.ofSeconds(30));
        assertThat(records).as("records of " + session).hasSize(2);
        return records;
    }

    private static int status(String session, TestTenants persona) {
        return given().header("Authorization", persona.bearer()).when().get("/v1/sessions/" + session).statusCode();
    }
}
