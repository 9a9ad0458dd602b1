package dev.hindsight.testing;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A minimal MCP client over streamable HTTP, as an agent's would be: initialize, then JSON-RPC requests carrying the
 * session id; answers may come as JSON or as a server-sent event stream.
 */
public final class McpClient {

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI endpoint;
    private final String bearer;
    private final AtomicInteger ids = new AtomicInteger();
    private String session;

    public McpClient(URI endpoint, String bearer) {
        this.endpoint = endpoint;
        this.bearer = bearer;
    }

    public JsonObject initialize() {
        JsonObject result = request("initialize", new JsonObject().put("protocolVersion", "2025-06-18")
                .put("capabilities", new JsonObject())
                .put("clientInfo", new JsonObject().put("name", "hindsight-test").put("version", "1")));
        notify("notifications/initialized");
        return result;
    }

    public JsonObject request(String method, JsonObject params) {
        JsonObject body = new JsonObject().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method)
                .put("params", params);
        HttpResponse<String> response = send(body);
        if (response.statusCode() != 200) {
            throw new AssertionError(method + " answered " + response.statusCode() + ": " + response.body());
        }
        response.headers().firstValue("Mcp-Session-Id").ifPresent(id -> session = id);
        JsonObject answer = parse(response);
        if (answer.containsKey("error")) {
            throw new AssertionError(method + " failed: " + answer.encode());
        }
        return answer.getJsonObject("result");
    }

    public JsonObject callTool(String name, JsonObject arguments) {
        return request("tools/call", new JsonObject().put("name", name).put("arguments", arguments));
    }

    public void notify(String method) {
        send(new JsonObject().put("jsonrpc", "2.0").put("method", method));
    }

    public int status(String method) {
        return send(new JsonObject().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method)
                .put("params", new JsonObject())).statusCode();
    }

    private HttpResponse<String> send(JsonObject body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
        if (bearer != null) {
            request.header("Authorization", bearer);
        }
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("MCP request failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static JsonObject parse(HttpResponse<String> response) {
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("text/event-stream")) {
            return new JsonObject(response.body());
        }
        JsonObject last = null;
        for (String line : response.body().split("\n")) {
            if (line.startsWith("data:")) {
                JsonObject event = new JsonObject(line.substring(5).strip());
                if (event.containsKey("id")) {
                    last = event;
                }
            }
        }
        if (last == null) {
            throw new AssertionError("no JSON-RPC answer in the event stream: " + response.body());
        }
        return last;
    }
}
