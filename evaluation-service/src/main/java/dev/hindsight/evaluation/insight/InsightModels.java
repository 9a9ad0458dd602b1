package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.config.EvaluationConfig;
import dev.hindsight.evaluation.insight.llm.ChatCompletionsClient;
import dev.hindsight.evaluation.insight.llm.LlmJudge;
import dev.hindsight.evaluation.insight.llm.LlmSummarizer;
import dev.hindsight.platform.tenant.TenantId;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Which summarizer writes a tenant's summaries, and which judge scores its traces: {@code extractive} /
 * {@code rubric} (offline, deterministic) by default, {@code llm} for the OpenAI-compatible endpoint; both per tenant.
 */
@Singleton
public class InsightModels {

    private final Summarizer defaultSummarizer;
    private final Map<TenantId, Summarizer> summarizerByTenant;
    private final Judge defaultJudge;
    private final Map<TenantId, Judge> judgeByTenant;

    public InsightModels(EvaluationConfig config) {
        ChatCompletionsClient client = new ChatCompletionsClient(config.llm());
        Judge rubric = OfflineInsights.judge();
        Judge llm = new LlmJudge(client);
        Summarizer extractive = OfflineInsights.summarizer();
        Summarizer model = new LlmSummarizer(client);
        this.defaultSummarizer = pick("summarizer", config.insights().summarizer(), "extractive", extractive, model);
        this.summarizerByTenant = new HashMap<>();
        config.insights().summarizerByTenant().forEach((key, name) ->
                summarizerByTenant.put(TenantId.of(key), pick("summarizer", name, "extractive", extractive, model)));
        this.defaultJudge = pick("judge", config.insights().judge(), "rubric", rubric, llm);
        this.judgeByTenant = new HashMap<>();
        config.insights().judgeByTenant().forEach((key, name) ->
                judgeByTenant.put(TenantId.of(key), pick("judge", name, "rubric", rubric, llm)));
    }

    public Summarizer summarizerFor(TenantId tenant) {
        return summarizerByTenant.getOrDefault(tenant, defaultSummarizer);
    }

    public Judge judgeFor(TenantId tenant) {
        return judgeByTenant.getOrDefault(tenant, defaultJudge);
    }

    /** The offline model or the LLM one, by its configured name; any other name fails start-up. */
    private static <T> T pick(String role, String name, String offlineName, T offline, T llm) {
        String chosen = name.toLowerCase(Locale.ROOT);
        if (chosen.equals(offlineName)) {
            return offline;
        }
        if (chosen.equals("llm")) {
            return llm;
        }
        throw new IllegalArgumentException("a " + role + " must be " + offlineName + " or llm, not " + name);
    }
}
