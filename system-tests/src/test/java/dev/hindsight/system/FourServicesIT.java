package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestTenants;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One debugging trace through the four packaged services, each a process of its own: ingest accepts it,
 * evaluation-service summarises and judges it, memory-service distils a lesson from it once judged, and query-service
 * shows the trace with its verdict, the session with its summary, and the distilled memory (console) linked back to
 * the trace's session.
 */
class FourServicesIT {

    private static final TestTenants WHO = TestTenants.TENANT_A;
    private static final Duration WAIT = Duration.ofSeconds(120);

    private static RunningSystem system;

    @BeforeAll
    static void startTheSystem() {
        system = RunningSystem.shared();
    }

    @Test
    void aTraceIsJudgedAndSummarisedByEvaluationDistilledByMemoryAndShownWithBothByQuery() throws Exception {
        Wire wire = new Wire(WHO.bearer());
        String traceId = UUID.randomUUID().toString();
        String repo = "four-services-" + traceId.substring(0, 8);
        // The demo's debugging trace, under a new id and in a repository (so a memory project) of its own.
        String demo = Files.readString(Path.of(System.getProperty("hindsight.test.demo-dir", "../deploy/local/demo"),
                "003-debugging-trace", "trace.json"));
        String trace = demo.replace(Wire.JSON.readTree(demo).path("trace_id").asText(), traceId)
                .replace("https://github.com/example/repo.git", "https://example.com/acme/" + repo + ".git");
        assertThat(trace).contains(traceId).contains(repo);
        assertThat(wire.post(system.url(Service.INGEST) + "/v1/traces", "application/json", trace).status())
                .isEqualTo(202);

        // evaluation-service judged it; query-service shows the verdict on the trace.
        String query = system.url(Service.QUERY);
        JsonNode judged = await("the QA verdict in query-service").atMost(WAIT).pollInterval(Duration.ofSeconds(1))
                .until(() -> wire.get(query + "/v1/traces/" + traceId), answer -> answer.status() == 200
                        && "completed".equals(answer.body().path("qa_results").path("status").asText()))
                .body();
        assertThat(judged.path("qa_results").path("score").asDouble()).isBetween(0.0, 100.0);
        assertThat(judged.path("qa_results").path("rubric").isObject()).isTrue();

        // evaluation-service summarised the session; query-service shows the summary on it.
        JsonNode session = await("the session summary in query-service").atMost(WAIT)
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> wire.get(query + "/v1/sessions/" + traceId), answer -> answer.status() == 200
                        && !answer.body().path("session_summary").asText("").isBlank())
                .body();
        assertThat(session.path("kind").asText()).isEqualTo("debug");

        // memory-service distilled a lesson from it, in the project named after the repository.
        JsonNode memories = await("a memory distilled from the trace").atMost(WAIT).pollInterval(Duration.ofSeconds(1))
                .until(() -> wire.get(system.url(Service.MEMORY) + "/v1/projects/" + repo + "/memories"),
                        answer -> answer.status() == 200 && distilledFrom(answer.body(), traceId) != null)
                .body();
        JsonNode memory = distilledFrom(memories, traceId);
        assertThat(memory.path("origin").asText()).isEqualTo("distilled");

        // query-service's console shows that memory (it follows memory-service's events), linked to the session.
        HttpClient http = HttpClient.newHttpClient();
        String cookie = signIn(http, query);
        String page = await("the memory in query-service's console").atMost(WAIT).pollInterval(Duration.ofSeconds(1))
                .until(() -> http.send(HttpRequest.newBuilder(URI.create(query + "/ui/memories/"
                                + memory.path("id").asText())).header("Cookie", cookie).GET().build(),
                        HttpResponse.BodyHandlers.ofString()), answer -> answer.statusCode() == 200).body();
        assertThat(page).contains("/ui/sessions/" + traceId);
    }

    private static JsonNode distilledFrom(JsonNode page, String sessionId) {
        return StreamSupport.stream(page.path("memories").spliterator(), false)
                .filter(m -> StreamSupport.stream(m.path("source_session_ids").spliterator(), false)
                        .anyMatch(id -> id.asText().equals(sessionId)))
                .findFirst().orElse(null);
    }

    private static String signIn(HttpClient http, String query) throws Exception {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(query + "/ui/sign-in"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("api_key=" + URLEncoder.encode(WHO.key(),
                        StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(303);
        String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
        return cookie.substring(0, cookie.indexOf(';'));
    }
}
