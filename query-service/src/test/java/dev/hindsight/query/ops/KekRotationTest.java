package dev.hindsight.query.ops;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.platform.crypto.LocalKms;
import dev.hindsight.testing.TestCrypto;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Rotating the key-encryption key (ADR 0027) is adding a master key version: consumers get it first, then the
 * services that seal start wrapping new keys under it, while keys wrapped under the old version still open. A consumer
 * configured with both opens every event of a load whose keys switch from one version to the other midway, in the
 * order they arrive, and loses none.
 */
@QuarkusTest
@TestProfile(KekRotationTest.Profile.class)
class KekRotationTest {

    private static final Instant T0 = Instant.parse("2025-10-02T10:00:00Z");
    /** The service under test, configured as a deployment is during a rotation. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return TestCrypto.rotatedConfig();
        }
    }

    @Test
    void aLoadWhoseKeysSwitchToTheNewVersionMidwayIsProjectedWhole() {
        LocalKms before = TestCrypto.kms();
        LocalKms after = TestCrypto.rotatedKms();
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String session = "kek-rotation-" + UUID.randomUUID();
            sessions.add(session);
            TestEvents.sealedSession(i < 30 ? before : after, "tenant-a", session,
                    SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0).build(),
                    TestEvents.message(0, "question " + i, T0), TestEvents.message(1, "answer " + i, T0));
        }
        for (int i = 0; i < sessions.size(); i++) {
            String session = sessions.get(i);
            String answer = "answer " + i;
            await("session " + i + " projected").atMost(Duration.ofSeconds(60)).untilAsserted(() -> given()
                    .header("Authorization", TestTenants.TENANT_A.bearer())
                    .when().get("/v1/sessions/" + session).then().statusCode(200)
                    .body("messages[1].content", equalTo(answer)));
        }
    }
}
