package dev.hindsight.ingest.publish;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.hindsight.testing.PrivateBrokerTestResource;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Acknowledged means durable: with the broker stopped, ingest answers 503 with Retry-After (never a 202 for data it
 * could not store), and once the broker is back, requests are accepted again.
 */
@QuarkusTest
@TestProfile(BrokerOutageTest.Outage.class)
class BrokerOutageTest {

    /**
     * A private broker this test may stop. The acknowledgement timeout is long enough that an answer which waited for
     * it cannot be mistaken for one that did not, and the circuit stays open long enough for the requests after it.
     */
    public static class Outage implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hindsight.ingest.ack-timeout", "6s", "hindsight.ingest.open-circuit-for", "20s");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PrivateBrokerTestResource.class));
        }
    }

    @Test
    void brokerDownMeans503WithRetryAfterAndBackMeans202() {
        assertThat(append().statusCode()).isEqualTo(202);

        PrivateBrokerTestResource.stopBroker();
        try {
            Response during = append();
            assertThat(during.statusCode()).isEqualTo(503);
            assertThat(during.header("Retry-After")).isEqualTo("20");
            assertThat(during.contentType()).startsWith("application/problem+json");
            // While the circuit is open, the answer does not wait for Kafka at all: without the circuit it would take
            // the acknowledgement timeout again (6 s), so half of it separates the two behaviours beyond any hiccup.
            long start = System.nanoTime();
            Response next = append();
            assertThat(next.statusCode()).isEqualTo(503);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered without trying Kafka")
                    .isLessThan(Duration.ofSeconds(3));
            // A batch answers per item: nothing acknowledged is claimed, invalid items are still named.
            given().urlEncodingEnabled(false).contentType(ContentType.JSON)
                    .header("Authorization", TestTenants.TENANT_A.bearer())
                    .body("""
                            {"items": [{"type": "session", "body": {"kind": "chat"}},
                                       {"type": "teleport", "body": {}}]}""")
                    .when().post("/v1/events:batch")
                    .then().statusCode(200)
                    .body("accepted", equalTo(0))
                    .body("unavailable", equalTo(1))
                    .body("rejected", equalTo(1))
                    .body("results[0].status", equalTo("unavailable"))
                    .body("results[1].status", equalTo("rejected"));
        } finally {
            PrivateBrokerTestResource.startBroker();
        }

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(append().statusCode()).isEqualTo(202));
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"kind\": \"chat\"}")
                .when().post("/v1/sessions")
                .then().statusCode(202).body("receipts[0].topic", equalTo("hindsight.reasoning.v1"));
    }

    private static Response append() {
        return given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"messages\": [{\"message_index\": 0, \"role\": \"user\", \"content\": \"" + UUID.randomUUID()
                        + "\"}]}")
                .when().post("/v1/sessions/outage-" + UUID.randomUUID() + "/messages")
                .then().extract().response();
    }
}
