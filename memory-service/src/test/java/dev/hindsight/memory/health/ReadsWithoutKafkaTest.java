package dev.hindsight.memory.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

import dev.hindsight.testing.KafkaOutage;
import dev.hindsight.testing.PrivateBrokerTestResource;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Kafka outage degrades memory-service without taking it out of service: with the broker stopped, readiness stays UP
 * and says Kafka is unreachable, reads (a search, a memory by id) are answered from PostgreSQL and a write is refused
 * with 503; once the broker is back, readiness says so.
 */
@QuarkusTest
@TestProfile(ReadsWithoutKafkaTest.Outage.class)
class ReadsWithoutKafkaTest {

    /** A broker of this test's own, which it stops; a write waits 2 s for Kafka before it is refused. */
    public static class Outage extends KafkaOutage.Profile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hindsight.memory-ack-timeout", "2s");
        }
    }

    @Test
    void readsAndReadinessOutliveTheBroker() {
        KafkaOutage.awaitReported("reachable", Duration.ofSeconds(30));
        String id = given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json")
                .body(Map.of("title", "Read CSV files with newline=''", "content", "Open the file with newline='' "
                        + "or embedded newlines split rows", "outcome", "success"))
                .when().post("/v1/projects/outage/memories")
                .then().statusCode(201).extract().path("id");

        PrivateBrokerTestResource.stopBroker();
        try {
            KafkaOutage.awaitReported("unreachable", Duration.ofSeconds(30));
            given().header("Authorization", TestTenants.TENANT_A.bearer())
                    .when().get("/v1/memories/" + id)
                    .then().statusCode(200).body("title", equalTo("Read CSV files with newline=''"));
            given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json")
                    .body("{\"query\": \"lines disappear when reading a file\"}")
                    .when().post("/v1/projects/outage/memories/search")
                    .then().statusCode(200).body("memories.id", hasItem(id));
            // A write publishes first: without the brokers it is refused, with when to try again.
            given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json")
                    .body(Map.of("title", "t", "content", "c", "outcome", "success"))
                    .when().post("/v1/projects/outage/memories")
                    .then().statusCode(503).header("Retry-After", notNullValue());
        } finally {
            PrivateBrokerTestResource.startBroker();
        }
        KafkaOutage.awaitReported("reachable", Duration.ofSeconds(60));
    }
}
