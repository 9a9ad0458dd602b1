package dev.hindsight.system;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestTenants;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Waits for query-service to show a session of tenant A as a test expects it: ingest acknowledged what was sent, and
 * query-service applies it in its own time. Answers the last session read even when it never became what was
 * expected, so that the test's assertions say what differs.
 */
final class SessionAwait {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private SessionAwait() {
    }

    /** The session once {@code complete} holds of it, or the last one read after a minute; {@code replay} says how. */
    static JsonNode until(RunningSystem system, String sessionId, Predicate<JsonNode> complete, String replay) {
        JsonNode[] last = new JsonNode[1];
        try {
            await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
                Response response = given().baseUri(system.url(Service.QUERY))
                        .header("Authorization", TestTenants.TENANT_A.bearer())
                        .when().get("/v1/sessions/" + sessionId);
                if (response.statusCode() != 200) {
                    return false;
                }
                last[0] = Wire.JSON.readTree(response.asByteArray());
                return complete.test(last[0]);
            });
        } catch (org.awaitility.core.ConditionTimeoutException timedOut) {
            assertThat(last[0]).as("session %s within %s (%s)", sessionId, WAIT, replay).isNotNull();
        }
        return last[0];
    }
}
