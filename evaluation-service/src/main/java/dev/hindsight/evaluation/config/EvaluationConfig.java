package dev.hindsight.evaluation.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Every setting of evaluation-service, with its default; each can be set as an environment variable. */
@ConfigMapping(prefix = "hindsight.evaluation")
public interface EvaluationConfig {

    /** Shadow evaluation (design.md § Reality Alignment Score). */
    Shadow shadow();

    /** Summaries and the QA judge. */
    Insights insights();

    /** The OpenAI-compatible chat-completions endpoint used by the {@code llm} summarizer and judge. */
    Llm llm();

    /** The outbox relay. */
    Relay relay();

    interface Shadow {
        /** A decision set is evaluated when its window closes, this long after the decision (event time). */
        @WithDefault("30m")
        Duration window();

        /** Never close a window sooner than this after the decision set arrived (lets signals sent with it land). */
        @WithDefault("5s")
        Duration settle();

        /** How often open windows are checked. */
        @WithDefault("1s")
        Duration checkInterval();

        /** Prior weight w0 of the score (every score starts at 0.5 with this weight). */
        @WithDefault("1.0")
        double priorWeight();
    }

    interface Insights {
        /**
         * Summarizer for tenants not listed in {@link #summarizerByTenant()}: {@code extractive} (offline,
         * deterministic; message summaries are written as the message is recorded) or {@code llm} (jobs).
         */
        @WithDefault("extractive")
        String summarizer();

        /** Summarizer per tenant, e.g. {@code hindsight.evaluation.insights.summarizer-by-tenant.acme=llm}. */
        Map<String, String> summarizerByTenant();

        /** Judge for tenants not listed in {@link #judgeByTenant()}: {@code rubric} (offline) or {@code llm}. */
        @WithDefault("rubric")
        String judge();

        /** Judge per tenant, e.g. {@code hindsight.evaluation.insights.judge-by-tenant.acme=llm}. */
        Map<String, String> judgeByTenant();

        /** Attempts before a summary or judgement is published as failed. */
        @WithDefault("4")
        int maxAttempts();

        /** First retry delay; doubled on each further attempt. */
        @WithDefault("2s")
        Duration backoff();

        /** Jobs run at once by one instance (model calls are the slow part). */
        @WithDefault("32")
        int concurrency();

        /** How often due jobs are looked for when nothing woke the worker. */
        @WithDefault("500ms")
        Duration pollInterval();

        /** A running job whose instance died is taken over after this. */
        @WithDefault("2m")
        Duration lease();

        /** Finished (done or failed) jobs are deleted this long after they finished: their results are events. */
        @WithDefault("7d")
        Duration keepFinished();

        /** How often finished jobs past {@link #keepFinished()} are deleted. */
        @WithDefault("1h")
        Duration pruneEvery();
    }

    interface Llm {
        /** e.g. {@code https://api.openai.com/v1} or a local server's {@code http://localhost:11434/v1}. */
        @WithDefault("http://localhost:11434/v1")
        String baseUrl();

        @WithDefault("gpt-4o-mini")
        String model();

        /** Sent as {@code Authorization: Bearer}; none when absent. */
        Optional<String> apiKey();

        @WithDefault("30s")
        Duration timeout();
    }

    interface Relay {
        /** How often the outbox is checked when nothing woke the relay. */
        @WithDefault("200ms")
        Duration pollInterval();

        /** Rows published per round. */
        @WithDefault("500")
        int batchSize();
    }
}
