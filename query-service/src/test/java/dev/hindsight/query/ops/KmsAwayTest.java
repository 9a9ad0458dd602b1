package dev.hindsight.query.ops;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.google.crypto.tink.Aead;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.crypto.LocalKms;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.testing.TestCrypto;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;

/**
 * While the KMS does not answer, a consumer cannot open the data keys of what it reads (ADR 0027): it holds its
 * partitions and waits, dead-letters nothing and projects nothing of those events; once the KMS answers again, it
 * projects every one of them.
 */
@QuarkusTest
@TestProfile(KmsAwayTest.Profile.class)
class KmsAwayTest {

    private static final Instant T0 = Instant.parse("2025-10-02T10:00:00Z");
    private static final List<String> DEAD_LETTERS = List.of("hindsight.query.reasoning.dlq");
    private static final Pattern WAITS = Pattern.compile(
            "hindsight_consumer_sealed_waits_total\\{[^}]*topic=\"hindsight.reasoning.v1\"[^}]*} ([0-9.E]+)");

    /** The query-service under test with {@link SwitchableKms} as its KMS. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(SwitchableKms.class);
        }
    }

    /**
     * The tests' local KMS, which answers as a KMS that cannot be reached while {@link #away} is set. Enabled by the
     * profile only (no priority, which would enable it for every test of the module).
     */
    @Alternative
    @ApplicationScoped
    public static class SwitchableKms implements Kms {
        static volatile boolean away;
        private final LocalKms local = TestCrypto.kms();

        @Override
        public Aead keyEncryptionKey(TenantId tenant, int version) {
            if (away) {
                throw new KmsUnavailableException("the test took the KMS away", null);
            }
            return local.keyEncryptionKey(tenant, version);
        }

        @Override
        public int currentVersion() {
            return local.currentVersion();
        }

        @Override
        public byte[] keyedHash(TenantId tenant, byte[] data) {
            return local.keyedHash(tenant, data);
        }
    }

    @Test
    void aConsumerWaitsForTheKmsAndThenProjectsEverythingDeadLetteringNothing() throws Exception {
        long deadLettersBefore = deadLetters();
        double waitsBefore = waits();
        List<String> sessions = new ArrayList<>();
        SwitchableKms.away = true;
        try {
            // A load of new sessions, each under its own data key, which no replica has opened yet.
            for (int i = 0; i < 60; i++) {
                String session = "kms-away-" + UUID.randomUUID();
                sessions.add(session);
                TestEvents.sealedSession("tenant-a", session,
                        SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0).build(),
                        TestEvents.message(0, "question " + i, T0), TestEvents.message(1, "answer " + i, T0));
            }
            await("the consumer waiting on the KMS").atMost(Duration.ofSeconds(60))
                    .until(() -> waits() > waitsBefore);
            for (String session : List.of(sessions.get(0), sessions.get(sessions.size() - 1))) {
                given().header("Authorization", TestTenants.TENANT_A.bearer())
                        .when().get("/v1/sessions/" + session).then().statusCode(404);
            }
        } finally {
            SwitchableKms.away = false;
        }
        for (int i = 0; i < sessions.size(); i++) {
            String session = sessions.get(i);
            String answer = "answer " + i;
            await("session " + i + " projected").atMost(Duration.ofSeconds(90)).untilAsserted(() -> given()
                    .header("Authorization", TestTenants.TENANT_A.bearer())
                    .when().get("/v1/sessions/" + session).then().statusCode(200)
                    .body("messages[1].content", equalTo(answer)));
        }
        assertThat(deadLetters()).as("dead-lettered while the KMS was away").isEqualTo(deadLettersBefore);
    }


    /** How many times the reasoning consumer found an event it could not open yet. */
    private static double waits() {
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher found = WAITS.matcher(metrics);
        return found.find() ? Double.parseDouble(found.group(1)) : 0;
    }

    private static long deadLetters() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestKafka.bootstrapServers()))) {
            if (!admin.listTopics().names().get().containsAll(DEAD_LETTERS)) {
                return 0;
            }
            return TestTopics.endOffsets(admin, DEAD_LETTERS).values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
