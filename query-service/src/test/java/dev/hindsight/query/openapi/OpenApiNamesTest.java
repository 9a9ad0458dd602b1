package dev.hindsight.query.openapi;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.HindsightTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

/** The published document names a session's properties as GET /v1/sessions/{id} serves them. */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class OpenApiNamesTest {

    @Test
    void aSessionIsDocumentedWithTheNamesItIsServedWith() {
        JsonPath document = given().when().get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();

        assertThat(document.getMap("components.schemas.SessionView.properties"))
                .containsKeys("session_id", "started_at", "total_messages", "qa_results")
                .doesNotContainKeys("sessionId", "startedAt", "totalMessages");
        assertThat(document.getMap("components.schemas.MessageView.properties"))
                .containsKeys("message_index", "thinking_steps", "usage")
                .doesNotContainKeys("messageIndex", "thinkingSteps");
        assertThat(document.getMap("components.schemas.Usage.properties"))
                .containsKeys("input_tokens", "output_tokens", "latency_ms", "model");
    }
}
