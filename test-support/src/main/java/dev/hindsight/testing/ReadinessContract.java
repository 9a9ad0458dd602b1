package dev.hindsight.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import org.junit.jupiter.api.Test;

/**
 * What every service with a database promises operators: readiness covers its Kafka and its database; liveness and
 * Prometheus metrics are where Quarkus users expect them. A service's test extends this with its annotations.
 */
public abstract class ReadinessContract {

    /**
     * The readiness check that covers Kafka: Quarkus's, which fails readiness while the brokers are away, unless the
     * service answers from its database and only reports them (platform's KafkaReachability, "kafka").
     */
    protected String kafkaCheck() {
        return "Kafka connection health check";
    }

    @Test
    void readinessCoversKafkaAndTheDatabase() {
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems(kafkaCheck(), "Reactive PostgreSQL connections health check"));
    }

    @Test
    void livenessAndMetricsAreServed() {
        given().when().get("/q/health/live").then().statusCode(200);
        given().when().get("/q/metrics").then().statusCode(200);
    }
}
