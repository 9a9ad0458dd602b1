package dev.hindsight.evaluation.insight.llm;

import static dev.hindsight.evaluation.insight.llm.ChatServer.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.evaluation.judge.Judgement;
import dev.hindsight.evaluation.judge.RubricDimension;
import dev.hindsight.evaluation.judge.RubricJudge;
import dev.hindsight.evaluation.judge.Trace;
import dev.hindsight.evaluation.judge.TraceStep;
import dev.hindsight.evaluation.insight.llm.ChatCompletionsClient.CompletionFailed;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LlmJudge} against a real local chat-completions server: the trace it sends, the contract it enforces. */
class LlmJudgeTest {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Instant T0 = Instant.parse("2025-10-29T16:00:00Z");

    /** Thought, command that fails, thought, edit, command that passes. */
    private static final Trace TRACE = new Trace("session-7", "CSV export drops the last row", List.of(
            TraceStep.thought("ev-1", 0, T0, "I suspect an off-by-one in the row loop."),
            TraceStep.command("ev-2", 1, T0.plusSeconds(1), "pytest tests/test_export.py", 1, "1 failed",
                    "AssertionError: 3 != 4"),
            TraceStep.thought("ev-3", 2, T0.plusSeconds(2), "The failure shows 3 rows, so range() stops early."),
            TraceStep.edit("ev-4", 3, T0.plusSeconds(3), "export.py", "-range(n - 1)\n+range(n)"),
            TraceStep.command("ev-5", 4, T0.plusSeconds(4), "pytest", 0, "4 passed", "")),
            "-range(n - 1)\n+range(n)");

    private static ChatServer server;

    private final LlmJudge judge = new LlmJudge(server.client());

    @BeforeAll
    static void startServer() throws IOException {
        server = ChatServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @AfterEach
    void resetServer() {
        server.reset();
    }

    /**
     * An answer that keeps the contract, with the dimensions in reverse rubric order: dimension i (in rubric order)
     * scores 60 + i and cites ev-(i+1).
     */
    private static ObjectNode validAnswer() {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode dimensions = root.putArray("dimensions");
        List<String> reversed = new ArrayList<>(RubricJudge.DIMENSIONS);
        Collections.reverse(reversed);
        for (String name : reversed) {
            int i = RubricJudge.DIMENSIONS.indexOf(name);
            ObjectNode dimension = dimensions.addObject().put("name", name).put("score", 60 + i);
            dimension.putArray("evidence_event_ids").add("ev-" + (i + 1));
            dimension.put("rationale", "why " + name);
        }
        root.put("overall_score", 64);
        return root;
    }

    private static ObjectNode dimension(ObjectNode answer, String name) {
        return (ObjectNode) StreamSupport.stream(answer.withArray("dimensions").spliterator(), false)
                .filter(d -> d.path("name").asText().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private Judgement judge(String answer) {
        server.answerContent(answer);
        return judge.judge(TRACE).await().atMost(WAIT);
    }

    private void assertViolation(String answer, String why) {
        server.answerContent(answer);

        assertThatThrownBy(() -> judge.judge(TRACE).await().atMost(WAIT))
                .isInstanceOf(CompletionFailed.class)
                .hasMessageContaining("violates the contract")
                .hasMessageContaining(why);
    }

    @Test
    void identifiesItselfByTheModel() {
        assertThat(judge.id()).isEqualTo("openai:" + ChatServer.MODEL);
    }

    @Test
    void readsAValidAnswerIntoAJudgementInRubricOrder() {
        Judgement judgement = judge(validAnswer().toString());

        assertThat(judgement.overallScore()).isEqualTo(64);
        assertThat(judgement.judge()).isEqualTo("openai:" + ChatServer.MODEL);
        assertThat(judgement.dimensions()).extracting(RubricDimension::name)
                .containsExactlyElementsOf(RubricJudge.DIMENSIONS);
        assertThat(judgement.dimensions()).extracting(RubricDimension::score).containsExactly(60, 61, 62, 63, 64);
        assertThat(judgement.dimensions()).extracting(RubricDimension::evidenceEventIds)
                .containsExactly(List.of("ev-1"), List.of("ev-2"), List.of("ev-3"), List.of("ev-4"), List.of("ev-5"));
        assertThat(judgement.dimension(RubricJudge.CLARITY_OF_REASONING).orElseThrow().rationale())
                .isEqualTo("why " + RubricJudge.CLARITY_OF_REASONING);
    }

    @Test
    void acceptsScoresAtTheBoundsAndSeveralOrNoEvidenceIds() {
        ObjectNode answer = validAnswer();
        dimension(answer, RubricJudge.HYPOTHESIS_FORMATION).put("score", 0);
        dimension(answer, RubricJudge.EVIDENCE_GATHERING).put("score", 100).putArray("evidence_event_ids")
                .add("ev-2").add("ev-3");
        dimension(answer, RubricJudge.REACTION_TO_FAILURES).putArray("evidence_event_ids");
        answer.put("overall_score", 100);

        Judgement judgement = judge(answer.toString());

        assertThat(judgement.overallScore()).isEqualTo(100);
        assertThat(judgement.dimension(RubricJudge.HYPOTHESIS_FORMATION).orElseThrow().score()).isZero();
        RubricDimension evidence = judgement.dimension(RubricJudge.EVIDENCE_GATHERING).orElseThrow();
        assertThat(evidence.score()).isEqualTo(100);
        assertThat(evidence.evidenceEventIds()).containsExactly("ev-2", "ev-3");
        assertThat(judgement.dimension(RubricJudge.REACTION_TO_FAILURES).orElseThrow().evidenceEventIds()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"```json\n%s\n```", "```\n%s\n```", "  ```json\n%s\n```\n"})
    void acceptsAnAnswerWrappedInCodeFences(String fenced) {
        Judgement judgement = judge(fenced.formatted(validAnswer().toPrettyString()));

        assertThat(judgement.overallScore()).isEqualTo(64);
        assertThat(judgement.dimensions()).hasSize(5);
    }

    @Test
    void refusesAnAnswerThatIsNotJson() {
        assertViolation("The trace is methodical; I would give it 80.", "not JSON");
    }

    @Test
    void refusesAnAnswerWithoutADimensionsArray() {
        assertViolation("{\"overall_score\":50}", "no dimensions array");
    }

    @Test
    void refusesAMissingDimension() {
        ObjectNode answer = validAnswer();
        ArrayNode dimensions = answer.withArray("dimensions");
        for (int i = 0; i < dimensions.size(); i++) {
            if (dimensions.get(i).path("name").asText().equals(RubricJudge.REACTION_TO_FAILURES)) {
                dimensions.remove(i);
            }
        }

        assertViolation(answer.toString(), "missing dimensions [" + RubricJudge.REACTION_TO_FAILURES + "]");
    }

    @Test
    void refusesAnUnknownDimension() {
        ObjectNode answer = validAnswer();
        answer.withArray("dimensions").addObject().put("name", "speed").put("score", 90)
                .putArray("evidence_event_ids").add("ev-1");

        assertViolation(answer.toString(), "unknown dimension 'speed'");
    }

    @Test
    void refusesADimensionWithoutAName() {
        ObjectNode answer = validAnswer();
        dimension(answer, RubricJudge.EVIDENCE_GATHERING).remove("name");

        assertViolation(answer.toString(), "unknown dimension ''");
    }

    @Test
    void refusesADuplicatedDimension() {
        ObjectNode answer = validAnswer();
        answer.withArray("dimensions").add(dimension(answer, RubricJudge.CLARITY_OF_REASONING).deepCopy());

        assertViolation(answer.toString(), "dimension '" + RubricJudge.CLARITY_OF_REASONING + "' twice");
    }

    @ParameterizedTest
    @ValueSource(strings = {"101", "-1", "55.5", "\"55\"", "null", "4294967346"})
    void refusesADimensionScoreThatIsNotAnIntegerFrom0To100(String score) throws JsonProcessingException {
        ObjectNode answer = validAnswer();
        dimension(answer, RubricJudge.VERIFICATION_AFTER_EDITS).set("score", JSON.readTree(score));

        assertViolation(answer.toString(), RubricJudge.VERIFICATION_AFTER_EDITS + " is not an integer 0-100");
    }

    @ParameterizedTest
    @ValueSource(strings = {"missing", "101", "-1", "55.5", "\"64\""})
    void refusesAnOverallScoreThatIsMissingOrNotAnIntegerFrom0To100(String score) throws JsonProcessingException {
        ObjectNode answer = validAnswer();
        if (score.equals("missing")) {
            answer.remove("overall_score");
        } else {
            answer.set("overall_score", JSON.readTree(score));
        }

        assertViolation(answer.toString(), "overall_score is not an integer 0-100");
    }

    @Test
    void refusesEvidenceThatIsNotInTheTrace() {
        ObjectNode answer = validAnswer();
        dimension(answer, RubricJudge.HYPOTHESIS_FORMATION).withArray("evidence_event_ids").add("ev-99");

        assertViolation(answer.toString(), "cites event ev-99, not in the trace");
    }

    @Test
    void passesTheClientsFailureOn() {
        server.answer(429, "{\"error\":\"rate limited\"}");

        assertThatThrownBy(() -> judge.judge(TRACE).await().atMost(WAIT))
                .isInstanceOfSatisfying(CompletionFailed.class, e -> assertThat(e.status()).isEqualTo(429))
                .hasMessageContaining("rate limited");
    }

    @Test
    void asksForAJsonObjectAndNamesEveryRubricDimensionInThePrompt() {
        judge(validAnswer().toString());

        ChatServer.Request request = server.onlyRequest();
        assertThat(request.json().path("response_format").path("type").asText()).isEqualTo("json_object");
        assertThat(request.json().path("model").asText()).isEqualTo(ChatServer.MODEL);
        assertThat(request.systemMessage()).contains(RubricJudge.DIMENSIONS).contains("event_id");
    }

    @Test
    void sendsTheTraceAsJsonWithEachEventsIdAndType() throws JsonProcessingException {
        judge(validAnswer().toString());

        JsonNode trace = JSON.readTree(server.onlyRequest().userMessage());
        assertThat(trace.path("task_description").asText()).isEqualTo("CSV export drops the last row");
        assertThat(trace.path("final_code_diff").asText()).isEqualTo("-range(n - 1)\n+range(n)");
        JsonNode events = trace.path("events");
        assertThat(events).extracting(e -> e.path("event_id").asText())
                .containsExactly("ev-1", "ev-2", "ev-3", "ev-4", "ev-5");
        assertThat(events).extracting(e -> e.path("event_type").asText())
                .containsExactly("thought_log", "command_run", "thought_log", "file_edit", "command_run");

        assertThat(events.get(0).path("thought_text").asText()).isEqualTo("I suspect an off-by-one in the row loop.");
        JsonNode failedRun = events.get(1);
        assertThat(failedRun.path("command_text").asText()).isEqualTo("pytest tests/test_export.py");
        assertThat(failedRun.path("exit_code").asInt()).isEqualTo(1);
        assertThat(failedRun.path("stdout").asText()).isEqualTo("1 failed");
        assertThat(failedRun.path("stderr").asText()).isEqualTo("AssertionError: 3 != 4");
        JsonNode edit = events.get(3);
        assertThat(edit.path("file_path").asText()).isEqualTo("export.py");
        assertThat(edit.path("content_diff").asText()).isEqualTo("-range(n - 1)\n+range(n)");
        assertThat(events.get(4).path("exit_code").asInt(-1)).isZero();
    }

    @Test
    void leavesOutAnUnknownExitCodeAndClipsLongFields() throws JsonProcessingException {
        Trace trace = new Trace("session-8", "t", List.of(
                TraceStep.thought("a", 0, T0, "w".repeat(LlmJudge.MAX_FIELD + 500)),
                TraceStep.command("b", 1, T0, "make", null, "", "")), "");
        // Only the request matters here; the canned answer cites events this trace lacks, so the judgement fails.
        judge.judge(trace).onFailure().recoverWithNull().await().atMost(WAIT);

        JsonNode events = JSON.readTree(server.onlyRequest().userMessage()).path("events");
        assertThat(events.get(0).path("thought_text").asText())
                .isEqualTo("w".repeat(LlmJudge.MAX_FIELD) + "…");
        assertThat(events.get(1).path("event_type").asText()).isEqualTo("command_run");
        assertThat(events.get(1).has("exit_code")).isFalse();
    }
}
