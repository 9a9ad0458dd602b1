package dev.hindsight.query.ops;

import static io.restassured.RestAssured.given;

import dev.hindsight.testing.KafkaOutage;
import dev.hindsight.testing.PrivateBrokerTestResource;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A Kafka outage degrades query-service without taking it out of service: with the broker stopped, readiness stays UP
 * and says Kafka is unreachable, and reads are answered from PostgreSQL; once the broker is back, readiness says so.
 */
@QuarkusTest
@TestProfile(KafkaOutage.Profile.class)
class ReadsWithoutKafkaTest {

    @Test
    void readsAndReadinessOutliveTheBroker() {
        KafkaOutage.awaitReported("reachable", Duration.ofSeconds(30));

        PrivateBrokerTestResource.stopBroker();
        try {
            KafkaOutage.awaitReported("unreachable", Duration.ofSeconds(30));
            given().header("Authorization", TestTenants.TENANT_A.bearer())
                    .when().get("/v1/sessions?limit=5")
                    .then().statusCode(200);
            given().header("Authorization", TestTenants.TENANT_A.bearer())
                    .when().get("/v1/sessions/no-such-session")
                    .then().statusCode(404);
        } finally {
            PrivateBrokerTestResource.startBroker();
        }
        KafkaOutage.awaitReported("reachable", Duration.ofSeconds(60));
    }
}
