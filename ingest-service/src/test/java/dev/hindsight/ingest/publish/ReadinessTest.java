package dev.hindsight.ingest.publish;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.hindsight.testing.HindsightTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/** ingest owns no database: ready means Kafka answers and its producer channel is up. */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class ReadinessTest {

    @Test
    void readinessCoversKafka() {
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("Kafka connection health check"));
    }

    @Test
    void openApiDocumentsTheSessionEndpoints() {
        given().when().get("/q/openapi?format=json")
                .then().statusCode(200)
                .body("paths.'/v1/sessions'.post.responses.'202'.description", equalTo("Published and acknowledged by Kafka"));
    }

    @Test
    void theOpenApiDocumentNamesPropertiesAsTheWireDoes() {
        io.restassured.path.json.JsonPath document = given().when().get("/q/openapi?format=json").then()
                .statusCode(200).extract().jsonPath();
        java.util.Map<String, Object> start = document.getMap("components.schemas.StartSession.properties");
        org.assertj.core.api.Assertions.assertThat(start).containsKeys("session_id", "started_at")
                .doesNotContainKeys("sessionId", "startedAt");
        java.util.Map<String, Object> message = document.getMap("components.schemas.Message.properties");
        org.assertj.core.api.Assertions.assertThat(message).containsKeys("message_index", "tool_name", "thinking_steps")
                .doesNotContainKeys("messageIndex", "toolName", "thinkingSteps");
    }

    @Test
    void kafkaCompressesWithTheNativeLz4Codec() {
        // Under Quarkus's class loader lz4-java hands Kafka its Java codec unless the native library was loaded first
        // (NativeLz4 does it at start-up): the same codec Kafka's own producer uses outside Quarkus.
        assertThat(LZ4Factory.fastestInstance()).isSameAs(LZ4Factory.nativeInstance());
    }
}
