package dev.hindsight.memory.mcp;

import static dev.hindsight.testing.TestTenants.TENANT_A;
import static dev.hindsight.testing.TestTenants.TENANT_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.McpClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The four MCP tools of design.md § MCP tools (and memory_context), called as raw JSON-RPC over streamable HTTP at
 * /mcp.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class McpToolsTest {

    @TestHTTPResource("/mcp")
    URI mcp;

    @Test
    void anAgentListsAndCallsAllFourTools() {
        McpClient agent = new McpClient(mcp, TENANT_A.bearer());
        assertThat(agent.initialize().getJsonObject("capabilities").containsKey("tools")).isTrue();

        JsonArray tools = agent.request("tools/list", new JsonObject()).getJsonArray("tools");
        assertThat(tools.stream().map(t -> ((JsonObject) t).getString("name")).toList())
                .containsExactlyInAnyOrder("memory_search", "memory_record", "memory_feedback", "memory_outcome",
                        "memory_context");
        assertThat(properties(tools, "memory_search")).containsExactlyInAnyOrder("project_id", "query", "limit");
        assertThat(properties(tools, "memory_record"))
                .containsExactlyInAnyOrder("project_id", "title", "content", "outcome", "tags");
        assertThat(properties(tools, "memory_feedback")).containsExactlyInAnyOrder("memory_id", "helpful");
        assertThat(properties(tools, "memory_outcome")).containsExactlyInAnyOrder("memory_id", "succeeded", "session_id");

        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        JsonObject recorded = structured(agent.callTool("memory_record", new JsonObject().put("project_id", project)
                .put("title", "Read the stack trace bottom-up").put("outcome", "success")
                .put("content", "The root cause of a Java exception is the last 'Caused by' in the trace.")
                .put("tags", new JsonArray().add("language:java"))));
        assertThat(recorded.fieldNames()).containsExactlyInAnyOrder("id", "title", "outcome", "confidence");
        assertThat(recorded.getDouble("confidence")).isEqualTo(0.8);
        String id = recorded.getString("id");
        // A host that repeats the call (it timed out, or the model asked twice) gets the same memory back.
        JsonObject repeated = structured(agent.callTool("memory_record", new JsonObject().put("project_id", project)
                .put("title", "Read the stack trace bottom-up").put("outcome", "success")
                .put("content", "The root cause of a Java exception is the last 'Caused by' in the trace.")
                .put("tags", new JsonArray().add("language:java"))));
        assertThat(repeated.getString("id")).isEqualTo(id);

        JsonObject found = structured(agent.callTool("memory_search", new JsonObject().put("project_id", project)
                .put("query", "where is the real cause of an exception")));
        assertThat(found.getInteger("count")).isEqualTo(1);
        JsonObject hit = found.getJsonArray("memories").getJsonObject(0);
        assertThat(hit.fieldNames()).containsExactlyInAnyOrder("id", "title", "content", "outcome", "confidence",
                "probation", "tags");
        assertThat(hit.getString("id")).isEqualTo(id);
        assertThat(hit.getBoolean("probation")).isFalse();

        JsonObject feedback = structured(agent.callTool("memory_feedback",
                new JsonObject().put("memory_id", id).put("helpful", true)));
        assertThat(feedback.fieldNames()).containsExactlyInAnyOrder("memory_id", "new_confidence", "helpful");
        assertThat(feedback.getDouble("new_confidence")).isGreaterThan(0.8);

        JsonObject outcome = structured(agent.callTool("memory_outcome",
                new JsonObject().put("memory_id", id).put("succeeded", false).put("session_id", "s-1")));
        assertThat(outcome.fieldNames()).containsExactlyInAnyOrder("recorded", "new_confidence", "message");
        assertThat(outcome.getBoolean("recorded")).isTrue();
        assertThat(outcome.getDouble("new_confidence")).isLessThan(feedback.getDouble("new_confidence"));
    }

    @Test
    void anotherTenantsMemoryIsNotFoundThroughTheTools() {
        McpClient owner = new McpClient(mcp, TENANT_A.bearer());
        owner.initialize();
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        String id = structured(owner.callTool("memory_record", new JsonObject().put("project_id", project)
                .put("title", "A's only").put("content", "Tenant A's lesson about caching.").put("outcome", "success")))
                .getString("id");

        McpClient other = new McpClient(mcp, TENANT_B.bearer());
        other.initialize();
        JsonObject search = structured(other.callTool("memory_search", new JsonObject().put("project_id", project)
                .put("query", "caching lesson")));
        assertThat(search.getInteger("count")).isZero();
        for (JsonObject call : List.of(
                other.callTool("memory_feedback", new JsonObject().put("memory_id", id).put("helpful", false)),
                other.callTool("memory_outcome", new JsonObject().put("memory_id", id).put("succeeded", false)))) {
            assertThat(call.getBoolean("isError")).isTrue();
            assertThat(call.getJsonArray("content").getJsonObject(0).getString("text")).contains("No memory");
        }
        JsonObject invalid = other.callTool("memory_record", new JsonObject().put("project_id", project)
                .put("title", "t").put("content", "c").put("outcome", "maybe"));
        assertThat(invalid.getBoolean("isError")).isTrue();

        // A's memory is untouched: the same confidence it was recorded with.
        JsonObject again = structured(owner.callTool("memory_search", new JsonObject().put("project_id", project)
                .put("query", "caching lesson")));
        assertThat(again.getJsonArray("memories").getJsonObject(0).getDouble("confidence")).isCloseTo(0.8, within(1e-9));
    }

    @Test
    void withoutAKeyTheMcpEndpointRefuses() {
        assertThat(new McpClient(mcp, null).status("initialize")).isEqualTo(401);
        assertThat(new McpClient(mcp, "Bearer wrong").status("initialize")).isEqualTo(401);
    }

    private static List<String> properties(JsonArray tools, String name) {
        JsonObject tool = tools.stream().map(JsonObject.class::cast).filter(t -> t.getString("name").equals(name))
                .findFirst().orElseThrow();
        return List.copyOf(tool.getJsonObject("inputSchema").getJsonObject("properties").fieldNames());
    }

    private static JsonObject structured(JsonObject result) {
        assertThat(result.getBoolean("isError", false)).as("tool error: %s", result.encode()).isFalse();
        assertThat(result.getJsonObject("structuredContent")).as("structured content of %s", result.encode()).isNotNull();
        return result.getJsonObject("structuredContent");
    }
}
