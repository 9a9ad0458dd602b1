package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.config.EvaluationConfig;
import dev.hindsight.evaluation.llm.ChatCompletionsClient;
import dev.hindsight.evaluation.llm.LlmJudge;
import dev.hindsight.evaluation.llm.LlmSummarizer;
import jakarta.inject.Singleton;
import java.util.Locale;
import java.util.Map;

/**
 * Which summarizer writes summaries, and which judge scores a tenant's traces: {@code extractive} / {@code rubric}
 * (offline, deterministic) by default, {@code llm} for the OpenAI-compatible endpoint; judges per tenant.
 */
@Singleton
public class InsightModels {

    private final Summarizer summarizer;
    private final Judge defaultJudge;
    private final Map<String, Judge> judgeByTenant;

    public InsightModels(EvaluationConfig config) {
        ChatCompletionsClient client = new ChatCompletionsClient(config.llm());
        Judge rubric = OfflineInsights.judge();
        Judge llm = new LlmJudge(client);
        this.summarizer = switch (config.insights().summarizer().toLowerCase(Locale.ROOT)) {
            case "extractive" -> OfflineInsights.summarizer();
            case "llm" -> new LlmSummarizer(client);
            default -> throw new IllegalArgumentException("hindsight.evaluation.insights.summarizer must be "
                    + "extractive or llm, not " + config.insights().summarizer());
        };
        this.defaultJudge = pick(config.insights().judge(), rubric, llm);
        this.judgeByTenant = new java.util.HashMap<>();
        config.insights().judgeByTenant().forEach((tenant, name) -> judgeByTenant.put(tenant, pick(name, rubric, llm)));
    }

    public Summarizer summarizer() {
        return summarizer;
    }

    public Judge judgeFor(String tenant) {
        return judgeByTenant.getOrDefault(tenant, defaultJudge);
    }

    private static Judge pick(String name, Judge rubric, Judge llm) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "rubric" -> rubric;
            case "llm" -> llm;
            default -> throw new IllegalArgumentException("a judge must be rubric or llm, not " + name);
        };
    }
}
