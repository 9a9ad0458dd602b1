package dev.hindsight.query.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * A session as dashboards read it: its attributes, summaries and QA results, its messages in conversation order with
 * each assistant message's thinking steps in exact order, its positions (seed 000) and trace activities (seed 003).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionView(String sessionId, String kind, OffsetDateTime startedAt, OffsetDateTime completedAt,
        String outcome, Trading trading, @JsonRawValue String attributes, @JsonRawValue String labels,
        int totalMessages, String sessionSummary, String finalCodeDiff, QaResults qaResults,
        List<MessageView> messages, @JsonRawValue String positions, @JsonRawValue String activities) {

    /** Seed 000's model-day. */
    public record Trading(String jobId, LocalDate date, String model) {
    }

    /** Seed 003's qa_results: pending until the QA judge has scored the session. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record QaResults(String status, Double score, @JsonRawValue String rubric, String reason,
            OffsetDateTime judgedAt) {

        static QaResults from(Row row) {
            JsonObject rubric = row.getJsonObject("qa_rubric");
            var score = row.getBigDecimal("qa_score");
            return new QaResults(row.getString("qa_status"), score == null ? null : score.doubleValue(),
                    rubric == null ? null : rubric.encode(), row.getString("qa_reason"),
                    row.getOffsetDateTime("qa_judged_at"));
        }
    }

    /**
     * One message (seed 000 reasoning_logs row) with its ordered thinking steps (seed 001). A legacy message that has
     * only reasoning text and a tool list gets steps rebuilt the way seed 001's readers fall back (the reasoning
     * first, then each tool in list order), flagged {@code thinking_steps_reconstructed}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record MessageView(int messageIndex, String role, String content, String summary, String toolName,
            String toolInput, OffsetDateTime timestamp, @JsonRawValue String thinkingSteps,
            Boolean thinkingStepsReconstructed, String reasoning, @JsonRawValue String tools, Usage usage) {

        public MessageView(int messageIndex, String role, String content, String summary, String toolName,
                String toolInput, OffsetDateTime timestamp, String thinkingSteps, Boolean thinkingStepsReconstructed,
                String reasoning, String tools) {
            this(messageIndex, role, content, summary, toolName, toolInput, timestamp, thinkingSteps,
                    thinkingStepsReconstructed, reasoning, tools, null);
        }

        static MessageView from(Row row) {
            String steps = row.getString("thinking_steps");
            String tools = row.getString("legacy_tools");
            String reasoning = row.getString("legacy_reasoning");
            Boolean reconstructed = null;
            boolean noSteps = steps == null || steps.equals("[]");
            if (noSteps && (reasoning != null || (tools != null && !tools.equals("[]")))) {
                steps = reconstruct(reasoning, tools == null ? null : new JsonArray(tools)).encode();
                reconstructed = true;
            }
            return new MessageView(row.getInteger("message_index"), row.getString("role"), row.getString("content"),
                    row.getString("summary"), row.getString("tool_name"), row.getString("tool_input"),
                    row.getOffsetDateTime("occurred_at"), steps == null ? "[]" : steps, reconstructed, reasoning,
                    tools, Usage.from(row));
        }

        /**
         * What the model calls behind a message cost, as OpenTelemetry reports it (tokens from {@code
         * gen_ai.usage.*} or {@code llm.token_count.*}, latency from the calls' spans); absent for messages sent
         * through the event API, which does not carry it.
         */
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public record Usage(Long inputTokens, Long outputTokens, Long latencyMs, String model) {

            static Usage from(Row row) {
                Usage usage = new Usage(row.getLong("input_tokens"), row.getLong("output_tokens"),
                        row.getLong("latency_ms"), row.getString("model"));
                return usage.equals(new Usage(null, null, null, null)) ? null : usage;
            }
        }

        static JsonArray reconstruct(String reasoning, JsonArray tools) {
            JsonArray steps = new JsonArray();
            if (reasoning != null && !reasoning.isBlank()) {
                steps.add(new JsonObject().put("step_order", 0).put("step_type", "reasoning").put("content", reasoning));
            }
            if (tools != null) {
                for (Object tool : tools) {
                    JsonObject step = ((JsonObject) tool).copy();
                    steps.add(new JsonObject().put("step_order", steps.size()).put("step_type", "tool")
                            .mergeIn(step));
                }
            }
            return steps;
        }
    }

    static SessionView from(Row row, List<MessageView> messages) {
        String jobId = row.getString("job_id");
        Trading trading = jobId == null ? null
                : new Trading(jobId, row.getLocalDate("trading_date"), row.getString("model"));
        JsonObject attributes = row.getJsonObject("attributes");
        JsonObject labels = row.getJsonObject("labels");
        String kind = row.getString("kind");
        boolean judged = "debug".equals(kind) || Boolean.TRUE.equals(row.getBoolean("judge_requested"))
                || !"pending".equals(row.getString("qa_status"));
        return new SessionView(row.getString("session_id"), kind, row.getOffsetDateTime("started_at"),
                row.getOffsetDateTime("completed_at"), row.getString("outcome"), trading,
                attributes == null || attributes.isEmpty() ? null : attributes.encode(),
                labels == null || labels.isEmpty() ? null : labels.encode(),
                row.getInteger("total_messages"), row.getString("session_summary"), row.getString("final_code_diff"),
                judged ? QaResults.from(row) : null, messages,
                row.getString("positions"), row.getString("activities"));
    }
}
