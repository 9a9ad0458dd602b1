package dev.hindsight.evaluation.judge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The judge on the shipped demo trace (deploy/local/demo/003-debugging-trace). */
class DemoTraceTest {

    private static final Path DEMO = Path.of("..", "deploy", "local", "demo", "003-debugging-trace", "trace.json");

    private final RubricJudge judge = new RubricJudge();

    @Test
    void judgesTheDemoTraceTheSameWayEveryTime() throws IOException {
        Trace trace = demoTrace();

        Judgement first = judge.judge(trace);
        Judgement second = new RubricJudge().judge(demoTrace());

        assertThat(second).isEqualTo(first);
    }

    @Test
    void demoTraceScores() throws IOException {
        Judgement j = judge.judge(demoTrace());

        // A stated hypothesis, a reproduction, one verified edit; but the failing reproduction is followed by the
        // edit rather than a thought about it, and neither thought says why.
        assertThat(j.dimensions()).extracting(RubricDimension::score).containsExactly(100, 30, 100, 20, 50);
        assertThat(j.overallScore()).isEqualTo(63);
    }

    @Test
    void demoEvidencePointsAtTheRightEvents() throws IOException {
        Judgement j = judge.judge(demoTrace());

        assertThat(j.dimension(RubricJudge.HYPOTHESIS_FORMATION).orElseThrow().evidenceEventIds())
                .containsExactly("b1f3c0de-0001-4a00-8000-000000000001");
        assertThat(j.dimension(RubricJudge.EVIDENCE_GATHERING).orElseThrow().evidenceEventIds())
                .containsExactly("b1f3c0de-0002-4a00-8000-000000000002");
        assertThat(j.dimension(RubricJudge.VERIFICATION_AFTER_EDITS).orElseThrow().evidenceEventIds())
                .containsExactly("b1f3c0de-0004-4a00-8000-000000000004");
        assertThat(j.dimension(RubricJudge.REACTION_TO_FAILURES).orElseThrow().evidenceEventIds())
                .containsExactly("b1f3c0de-0002-4a00-8000-000000000002", "b1f3c0de-0003-4a00-8000-000000000003");
    }

    /** Maps the trace JSON (thought_log, file_edit, command_run; design.md § Events) to a {@link Trace}. */
    static Trace demoTrace() throws IOException {
        JsonNode root = new ObjectMapper().readTree(DEMO.toFile());
        List<TraceStep> steps = new ArrayList<>();
        int sequence = 0;
        for (JsonNode event : root.path("events")) {
            String id = event.path("event_id").asText();
            JsonNode when = event.has("timestamp") ? event.get("timestamp") : event.get("timestamp_iso");
            // The sample writes "2025-10-29 T16:05:10Z"; the space is a typo, not a format (design.md § Trace format).
            Instant at = Instant.parse(when.asText().replace(" T", "T"));
            JsonNode p = event.path("payload");
            TraceStep step = switch (event.path("event_type").asText()) {
                case "thought_log" -> TraceStep.thought(id, sequence, at, p.path("thought_text").asText());
                case "file_edit" -> TraceStep.edit(id, sequence, at, p.path("file_path").asText(),
                        p.path("content_diff").asText());
                case "command_run" -> TraceStep.command(id, sequence, at, p.path("command_text").asText(),
                        p.hasNonNull("exit_code") ? p.get("exit_code").asInt() : null, p.path("stdout").asText(),
                        p.path("stderr").asText());
                default -> throw new IllegalStateException("unknown event type in " + event);
            };
            steps.add(step);
            sequence++;
        }
        return new Trace(root.path("trace_id").asText(), root.path("task_description").asText(), steps,
                root.path("Final_code_diff").asText());
    }
}
