package dev.hindsight.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import org.junit.jupiter.api.Test;

/**
 * What every service with a database promises operators: ready means its Kafka and its database answer; liveness
 * and Prometheus metrics are where Quarkus users expect them. A service's test extends this with its annotations.
 */
public abstract class ReadinessContract {

    @Test
    void readinessCoversKafkaAndTheDatabase() {
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems("Kafka connection health check",
                        "Reactive PostgreSQL connections health check"));
    }

    @Test
    void livenessAndMetricsAreServed() {
        given().when().get("/q/health/live").then().statusCode(200);
        given().when().get("/q/metrics").then().statusCode(200);
    }
}
