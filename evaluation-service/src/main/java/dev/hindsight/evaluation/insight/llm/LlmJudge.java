package dev.hindsight.evaluation.insight.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.evaluation.insight.Judge;
import dev.hindsight.evaluation.judge.Judgement;
import dev.hindsight.evaluation.judge.RubricDimension;
import dev.hindsight.evaluation.judge.RubricJudge;
import dev.hindsight.evaluation.judge.Trace;
import dev.hindsight.evaluation.judge.TraceStep;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The QA judge as a chat model, held to a strict JSON contract: exactly the rubric's five dimensions, integer scores
 * 0–100, evidence ids that exist in the trace, an overall score 0–100. An answer that breaks the contract is a failed
 * attempt (retried, then published as a failed judgement), never a half-trusted score.
 */
public final class LlmJudge implements Judge {

    static final int MAX_FIELD = 2_000;

    private static final String PROMPT = """
            You are a QA judge of developer debugging traces. Judge methodology over speed: a slower trace that forms \
            hypotheses, gathers evidence, verifies every edit and reacts to failures thoughtfully beats a fast lucky \
            one. Score each dimension 0-100 and cite the event_id values of the trace events that justify the score.
            Dimensions: hypothesis_formation, evidence_gathering, verification_after_edits, reaction_to_failures, \
            clarity_of_reasoning.
            Answer with one JSON object and nothing else, exactly of this form:
            {"dimensions":[{"name":"hypothesis_formation","score":0,"evidence_event_ids":["..."],"rationale":"..."}, \
            ...one entry per dimension...],"overall_score":0}""";

    private final ChatCompletionsClient client;
    private final ObjectMapper json = new ObjectMapper();

    public LlmJudge(ChatCompletionsClient client) {
        this.client = client;
    }

    @Override
    public String id() {
        return "openai:" + client.model();
    }

    @Override
    public Uni<Judgement> judge(Trace trace) {
        return client.complete(PROMPT, describe(trace), true).map(answer -> parse(answer, trace));
    }

    /** The trace as the model reads it: task, steps with their ids, final diff. */
    String describe(Trace trace) {
        ObjectNode root = json.createObjectNode();
        root.put("task_description", clip(trace.taskDescription()));
        ArrayNode events = root.putArray("events");
        for (TraceStep step : trace.steps()) {
            ObjectNode event = events.addObject();
            event.put("event_id", step.eventId());
            switch (step.kind()) {
                case THOUGHT -> event.put("event_type", "thought_log").put("thought_text", clip(step.text()));
                case EDIT -> event.put("event_type", "file_edit").put("file_path", step.filePath())
                        .put("content_diff", clip(step.diff()));
                case COMMAND -> {
                    event.put("event_type", "command_run").put("command_text", clip(step.command()))
                            .put("stdout", clip(step.stdout())).put("stderr", clip(step.stderr()));
                    if (step.exitCode() != null) {
                        event.put("exit_code", step.exitCode());
                    }
                }
            }
        }
        root.put("final_code_diff", clip(trace.finalCodeDiff()));
        return root.toString();
    }

    /** Reads the model's answer, refusing anything outside the contract. */
    Judgement parse(String answer, Trace trace) {
        JsonNode root;
        try {
            root = json.readTree(stripFences(answer));
        } catch (IOException e) {
            throw violation("not JSON");
        }
        Set<String> known = new HashSet<>();
        trace.steps().forEach(s -> known.add(s.eventId()));
        Map<String, RubricDimension> byName = new LinkedHashMap<>();
        JsonNode dimensions = root.path("dimensions");
        if (!dimensions.isArray()) {
            throw violation("no dimensions array");
        }
        for (JsonNode node : dimensions) {
            String name = node.path("name").asText("");
            if (!RubricJudge.DIMENSIONS.contains(name)) {
                throw violation("unknown dimension '" + name + "'");
            }
            if (byName.containsKey(name)) {
                throw violation("dimension '" + name + "' twice");
            }
            int score = score(node.path("score"), name);
            List<String> evidence = new ArrayList<>();
            for (JsonNode id : node.path("evidence_event_ids")) {
                if (!known.contains(id.asText())) {
                    throw violation("dimension '" + name + "' cites event " + id.asText() + ", not in the trace");
                }
                evidence.add(id.asText());
            }
            String rationale = node.path("rationale").isTextual() ? node.path("rationale").asText() : null;
            byName.put(name, new RubricDimension(name, score, List.copyOf(evidence), rationale));
        }
        if (!byName.keySet().containsAll(RubricJudge.DIMENSIONS)) {
            List<String> missing = new ArrayList<>(RubricJudge.DIMENSIONS);
            missing.removeAll(byName.keySet());
            throw violation("missing dimensions " + missing);
        }
        int overall = score(root.path("overall_score"), "overall_score");
        List<RubricDimension> ordered = RubricJudge.DIMENSIONS.stream().map(byName::get).toList();
        return new Judgement(overall, ordered, id());
    }

    private static int score(JsonNode node, String what) {
        // canConvertToInt: asInt() truncates a long, so 4294967346 would otherwise pass as 50.
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.asInt() < 0 || node.asInt() > 100) {
            throw violation(what + " is not an integer 0-100: " + node);
        }
        return node.asInt();
    }

    private static String stripFences(String answer) {
        String text = answer.strip();
        if (text.startsWith("```")) {
            text = text.replaceFirst("^```(json)?", "").replaceFirst("```$", "").strip();
        }
        return text;
    }

    private static String clip(String text) {
        return text == null || text.length() <= MAX_FIELD ? text : text.substring(0, MAX_FIELD) + "…";
    }

    private static ChatCompletionsClient.CompletionFailed violation(String what) {
        return new ChatCompletionsClient.CompletionFailed(0, "judge output violates the contract: " + what);
    }
}
