package dev.hindsight.evaluation.insight.llm;

import dev.hindsight.evaluation.insight.Summarizer;
import dev.hindsight.evaluation.summary.SessionDigest;
import io.smallrye.mutiny.Uni;

/** Summaries written by a chat model through {@link ChatCompletionsClient}; 1–2 sentences, decision and reason. */
public final class LlmSummarizer implements Summarizer {

    static final int MAX_INPUT = 12_000;
    static final int MAX_SUMMARY = 600;

    private static final String MESSAGE_PROMPT = """
            You summarise one message of an AI agent's reasoning for an audit log. Answer with one or two plain \
            sentences that state the decision the agent made and the reason it gave. No preamble, no markdown.""";
    private static final String SESSION_PROMPT = """
            You summarise a whole session of an AI agent's work for an audit log. Answer with one or two plain \
            sentences: what the agent did (its actions) and the key reason or outcome. No preamble, no markdown.""";

    private final ChatCompletionsClient client;

    public LlmSummarizer(ChatCompletionsClient client) {
        this.client = client;
    }

    @Override
    public String id() {
        return "openai:" + client.model();
    }

    @Override
    public Uni<String> summarizeMessage(String content) {
        return client.complete(MESSAGE_PROMPT, clip(content), false).map(LlmSummarizer::clean);
    }

    @Override
    public Uni<String> summarizeSession(SessionDigest digest) {
        StringBuilder input = new StringBuilder();
        if (digest.title() != null) {
            input.append("Session: ").append(digest.title()).append('\n');
        }
        if (!digest.actions().isEmpty()) {
            input.append("Actions: ").append(String.join("; ", digest.actions())).append('\n');
        }
        if (digest.outcome() != null) {
            input.append("Outcome: ").append(digest.outcome()).append('\n');
        }
        if (digest.summaryHint() != null) {
            input.append("Producer's note: ").append(digest.summaryHint()).append('\n');
        }
        for (String message : digest.assistantMessages()) {
            input.append("---\n").append(message).append('\n');
        }
        return client.complete(SESSION_PROMPT, clip(input.toString()), false).map(LlmSummarizer::clean);
    }

    private static String clip(String text) {
        return text.length() <= MAX_INPUT ? text : text.substring(0, MAX_INPUT);
    }

    /** Trims quotes and whitespace a model tends to add, and caps the length. */
    static String clean(String answer) {
        String text = answer.strip();
        if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
            text = text.substring(1, text.length() - 1).strip();
        }
        if (text.isEmpty()) {
            throw new ChatCompletionsClient.CompletionFailed(0, "the model answered an empty summary");
        }
        return text.length() <= MAX_SUMMARY ? text : text.substring(0, MAX_SUMMARY - 1) + "…";
    }
}
