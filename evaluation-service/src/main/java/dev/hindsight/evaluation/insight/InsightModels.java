package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.config.EvaluationConfig;
import dev.hindsight.evaluation.llm.ChatCompletionsClient;
import dev.hindsight.evaluation.llm.LlmJudge;
import dev.hindsight.evaluation.llm.LlmSummarizer;
import jakarta.inject.Singleton;
import java.util.Locale;
import java.util.Map;

/**
 * Which summarizer writes a tenant's summaries, and which judge scores its traces: {@code extractive} /
 * {@code rubric} (offline, deterministic) by default, {@code llm} for the OpenAI-compatible endpoint; both per tenant.
 */
@Singleton
public class InsightModels {

    private final Summarizer defaultSummarizer;
    private final Map<String, Summarizer> summarizerByTenant;
    private final Judge defaultJudge;
    private final Map<String, Judge> judgeByTenant;

    public InsightModels(EvaluationConfig config) {
        ChatCompletionsClient client = new ChatCompletionsClient(config.llm());
        Judge rubric = OfflineInsights.judge();
        Judge llm = new LlmJudge(client);
        Summarizer extractive = OfflineInsights.summarizer();
        Summarizer model = new LlmSummarizer(client);
        this.defaultSummarizer = summarizer(config.insights().summarizer(), extractive, model);
        this.summarizerByTenant = new java.util.HashMap<>();
        config.insights().summarizerByTenant().forEach((tenant, name) ->
                summarizerByTenant.put(tenant, summarizer(name, extractive, model)));
        this.defaultJudge = pick(config.insights().judge(), rubric, llm);
        this.judgeByTenant = new java.util.HashMap<>();
        config.insights().judgeByTenant().forEach((tenant, name) -> judgeByTenant.put(tenant, pick(name, rubric, llm)));
    }

    public Summarizer summarizerFor(String tenant) {
        return summarizerByTenant.getOrDefault(tenant, defaultSummarizer);
    }

    private static Summarizer summarizer(String name, Summarizer extractive, Summarizer llm) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "extractive" -> extractive;
            case "llm" -> llm;
            default -> throw new IllegalArgumentException("a summarizer must be extractive or llm, not " + name);
        };
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
