package dev.hindsight.testing;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * For a test of what a service does while Kafka is away: a profile that runs it on a broker of the test's own, with a
 * database ({@link PrivateBrokerTestResource}, stopped and started by the test), and what its readiness says of the
 * brokers (platform's KafkaReachability: readiness UP, check {@code kafka} reachable or unreachable).
 */
public final class KafkaOutage {

    private KafkaOutage() {
    }

    /** On a private broker, with a database. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PrivateBrokerTestResource.class, Map.of("database", "true")));
        }
    }

    /** Waits until readiness, still UP, reports Kafka as {@code state} ({@code reachable} or {@code unreachable}). */
    public static void awaitReported(String state, Duration within) {
        await("readiness reports Kafka " + state).atMost(within).untilAsserted(() -> given()
                .when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'kafka' }.data.kafka", equalTo(state)));
    }
}
