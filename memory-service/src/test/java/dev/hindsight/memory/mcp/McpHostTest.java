package dev.hindsight.memory.mcp;

import static dev.hindsight.testing.TestTenants.TENANT_A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.testing.HindsightTestResource;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * /mcp as a host sees it through the MCP Java SDK's client over streamable HTTP: five tools with their annotations,
 * each answer read from its text content alone (as hosts that ignore structuredContent read it), errors an agent can
 * act on, the context block as a prompt, and a wrong key refused the HTTP way.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class McpHostTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI root;

    private McpSyncClient host;

    @BeforeEach
    void connect() {
        host = McpClient.sync(HttpClientStreamableHttpTransport.builder(root.toString()).endpoint("/mcp")
                        .customizeRequest(request -> request.header("Authorization", TENANT_A.bearer())).build())
                .requestTimeout(Duration.ofSeconds(30)).build();
        host.initialize();
    }

    @AfterEach
    void disconnect() {
        host.closeGracefully();
    }

    @Test
    void fiveToolsAnswerInTheirTextContentWhatTheirStructuredContentSays() throws Exception {
        List<Tool> tools = host.listTools().tools();
        assertThat(tools).extracting(Tool::name).containsExactlyInAnyOrder("memory_search", "memory_record",
                "memory_feedback", "memory_outcome", "memory_context");
        assertThat(tools).allSatisfy(tool -> {
            assertThat(tool.annotations().destructiveHint()).as(tool.name()).isFalse();
            assertThat(tool.annotations().openWorldHint()).as(tool.name()).isFalse();
            assertThat(tool.annotations().readOnlyHint()).as(tool.name() + " records usage or signals").isFalse();
            assertThat(tool.annotations().title()).as(tool.name()).isNotBlank();
        });

        String project = "host-" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode recorded = text(call("memory_record", Map.of("project_id", project,
                "title", "Pin the JDK in CI", "outcome", "success",
                "content", "Builds broke when the CI image moved to a newer JDK: pin the version in the workflow.",
                "tags", List.of("ci"))));
        assertThat(recorded.path("confidence").asDouble()).isEqualTo(0.8);
        String id = recorded.path("id").asText();

        JsonNode found = text(call("memory_search", Map.of("project_id", project,
                "query", "the build fails after the CI runner was updated")));
        assertThat(found.path("count").asInt()).isEqualTo(1);
        assertThat(found.path("memories").path(0).path("id").asText()).isEqualTo(id);

        JsonNode context = text(call("memory_context", Map.of("project_id", project,
                "task", "upgrade the CI workflow", "max_tokens", 300)));
        assertThat(context.path("context").asText()).contains("Pin the JDK in CI");
        assertThat(context.path("max_tokens").asInt()).isEqualTo(300);
        assertThat(context.path("estimated_tokens").asInt()).isLessThanOrEqualTo(300);
        assertThat(context.path("memory_ids").path(0).asText()).isEqualTo(id);

        JsonNode rated = text(call("memory_feedback", Map.of("memory_id", id, "helpful", true)));
        assertThat(rated.path("new_confidence").asDouble()).isGreaterThan(0.8);
        JsonNode outcome = text(call("memory_outcome", Map.of("memory_id", id, "succeeded", true)));
        assertThat(outcome.path("recorded").asBoolean()).isTrue();
        assertThat(outcome.path("message").asText()).isEqualTo("Success recorded");
    }

    @Test
    void aToolErrorSaysWhichArgumentIsWrongInWordsNotAClassName() {
        CallToolResult wrong = call("memory_record", Map.of("project_id", "p", "title", "t", "content", "c",
                "outcome", "maybe"));
        assertThat(wrong.isError()).isTrue();
        assertThat(only(wrong)).isEqualTo("outcome must be success or failure");

        CallToolResult noMemories = call("memory_context", Map.of("project_id", "empty-" + UUID.randomUUID(),
                "task", "anything"));
        assertThat(noMemories.isError()).isTrue();
        assertThat(only(noMemories)).doesNotContain("Exception").contains("empty-");

        CallToolResult budget = call("memory_context", Map.of("project_id", "p", "task", "t", "max_tokens", 10));
        assertThat(only(budget)).isEqualTo("max_tokens must be between 50 and 4000");
    }

    @Test
    void theContextBlockIsAPromptForHostsThatStartSessionsWithOne() {
        String project = "prompt-" + UUID.randomUUID().toString().substring(0, 8);
        call("memory_record", Map.of("project_id", project, "title", "Retry idempotent calls only",
                "outcome", "failure", "content", "Retrying a non-idempotent POST created duplicate orders."));

        assertThat(host.listPrompts().prompts()).anySatisfy(prompt -> {
            assertThat(prompt.name()).isEqualTo("memory_context");
            assertThat(prompt.arguments()).extracting(a -> a.name() + (a.required() ? "*" : ""))
                    .containsExactlyInAnyOrder("project_id*", "task*", "max_tokens");
        });
        GetPromptResult prompt = host.getPrompt(new GetPromptRequest("memory_context",
                Map.of("project_id", project, "task", "add retries to the order client")));
        assertThat(prompt.messages()).singleElement().satisfies(message -> {
            assertThat(message.role().name()).isEqualToIgnoringCase("user");
            assertThat(((TextContent) message.content()).text()).contains("Retry idempotent calls only");
        });
        assertThatThrownBy(() -> host.getPrompt(new GetPromptRequest("memory_context",
                Map.of("project_id", project, "task", "x", "max_tokens", "lots"))))
                .hasMessageContaining("max_tokens must be a whole number");
    }

    @Test
    void aWrongKeyIsRefusedWith401AndABearerChallengeWithoutInternals() throws Exception {
        HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(root.resolve("/mcp"))
                .header("Authorization", "Bearer hs_not_a_key").header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("WWW-Authenticate")).as("%s %s", refused.headers().map(),
                refused.body()).hasValueSatisfying(v -> assertThat(v)
                .startsWith("Bearer"));
        assertThat(refused.body()).doesNotContain("Exception").doesNotContain("io.quarkus");
    }

    private CallToolResult call(String tool, Map<String, Object> arguments) {
        return host.callTool(new CallToolRequest(tool, arguments));
    }

    /** What a host that reads only {@code content} sees: one text block, parsed as the JSON it holds. */
    private static JsonNode text(CallToolResult result) throws Exception {
        assertThat(result.isError()).as("tool error: %s", result).isNotEqualTo(Boolean.TRUE);
        JsonNode fromText = JSON.readTree(only(result));
        assertThat(fromText).isEqualTo(JSON.valueToTree(result.structuredContent()));
        return fromText;
    }

    private static String only(CallToolResult result) {
        assertThat(result.content()).hasSize(1);
        return ((TextContent) result.content().get(0)).text();
    }
}
