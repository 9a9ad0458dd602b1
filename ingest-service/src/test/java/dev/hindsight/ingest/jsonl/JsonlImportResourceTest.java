package dev.hindsight.ingest.jsonl;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class JsonlImportResourceTest {

    private static final String LOG = """
            {"signature": "gpt-5", "new_messages": [{"role": "user", "content": "Please analyze and update today's (2025-10-02) positions.", "timestamp": "2025-10-02T10:00:00Z"}]}
            {"role": "assistant", "content": "Reading yesterday's positions.", "timestamp": "2025-10-02T10:01:00Z"}
            this line is not json
            {"role": "tool", "content": "{\\"cash\\": 10000}", "tool_name": "get_positions"}
            {"role": "narrator", "content": "not a role"}

            {"new_messages": [{"role": "assistant", "content": "Bought NVDA."}]}
            """;

    @Test
    void aLogFileBecomesOneTradingSessionAndReimportingCreatesNothingNew() {
        String job = "job-" + UUID.randomUUID();
        String first = importLog(job);
        String again = importLog(job);
        assertThat(again).isEqualTo(first);

        List<ConsumerRecord<String, ReasoningEvent>> published = TestTopics.read("hindsight.reasoning.v1",
                ReasoningEvent.class, e -> e.getSessionId().equals(first), 10, Duration.ofSeconds(20));
        List<String> distinctIds = published.stream().map(r -> r.value().getHeader().getEventId().toString())
                .distinct().toList();
        assertThat(distinctIds).hasSize(5);
        SessionStarted started = (SessionStarted) published.get(0).value().getPayload();
        assertThat(started.getTrading().getModel()).isEqualTo("gpt-5");
        assertThat(published.subList(1, 5)).extracting(r -> ((MessageRecorded) r.value().getPayload()).getMessageIndex())
                .containsExactly(0, 1, 2, 3);
    }

    private static String importLog(String job) {
        return given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/x-ndjson")
                .queryParam("job_id", job).queryParam("date", "2025-10-02").queryParam("model", "gpt-5")
                .body(LOG.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .when().post("/v1/imports/jsonl")
                .then().statusCode(202)
                .body("lines", equalTo(6))
                .body("messages", equalTo(4))
                .body("rejected_lines", hasSize(2))
                .body("rejected_lines[0].field", equalTo("line 3"))
                .extract().path("session_id");
    }
}
