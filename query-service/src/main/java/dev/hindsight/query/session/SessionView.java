package dev.hindsight.query.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A session as dashboards read it: its attributes, summaries and QA results, its messages in conversation order with
 * each assistant message's thinking steps in exact order, its positions (design.md § Positions) and trace activities
 * (design.md § Events).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionView(String sessionId, String kind, OffsetDateTime startedAt, OffsetDateTime completedAt,
        String outcome, Trading trading,
        @JsonRawValue @Schema(type = SchemaType.OBJECT, description = "The kind's attributes as recorded",
                additionalProperties = JsonNode.class) String attributes,
        @JsonRawValue @Schema(type = SchemaType.OBJECT, additionalProperties = String.class) String labels,
        int totalMessages, String sessionSummary, String finalCodeDiff, QaResults qaResults,
        List<MessageView> messages,
        @JsonRawValue @Schema(type = SchemaType.ARRAY, implementation = Position.class) String positions,
        @JsonRawValue @Schema(type = SchemaType.ARRAY, implementation = Activity.class) String activities,
        @JsonRawValue @Schema(type = SchemaType.ARRAY, implementation = Agent.class, description = "The agents that"
                + " ran, parents before their children, when an agent ran others inside it (OpenTelemetry"
                + " invoke_agent spans); absent otherwise. A sub-agent's steps are also in the thinking steps of the"
                + " answer during which it ran, with its agent_id.") String agents) {

    public SessionView(String sessionId, String kind, OffsetDateTime startedAt, OffsetDateTime completedAt,
            String outcome, Trading trading, String attributes, String labels, int totalMessages,
            String sessionSummary, String finalCodeDiff, QaResults qaResults, List<MessageView> messages,
            String positions, String activities) {
        this(sessionId, kind, startedAt, completedAt, outcome, trading, attributes, labels, totalMessages,
                sessionSummary, finalCodeDiff, qaResults, messages, positions, activities, null);
    }

    // The JSON columns are written to the answer as stored (@JsonRawValue); these records only describe them in the
    // published document.

    /** One trading action with the portfolio after it, in action order (design.md § Positions). */
    public record Position(int actionId, String actionType, String symbol, Double amount, Double price,
            Double cashAfter, Double portfolioValue, Double dailyProfit, Double dailyReturnPct) {
    }

    /** One trace event, in the trace's order (design.md § Events). */
    public record Activity(String eventId, String timestamp, String eventType, JsonNode payload) {
    }

    /**
     * One reasoning block or tool call of a message, at its exact position (design.md § Thinking steps); {@code
     * agent_id} names the sub-agent that took it (absent: the session's own agent), {@code memory_operation} the
     * memory operation a tool step is ({@code search_memory}, {@code create_memory}, ...).
     */
    public record ThinkingStep(int stepOrder, String stepType, String content, String toolName, JsonNode toolArguments,
            String toolResult, String toolError, String agentId, String memoryOperation) {
    }

    /** One agent run (design.md § OpenTelemetry in): a sub-agent has a parent and its own messages. */
    public record Agent(String agentId, String parentAgentId, String name, String description,
            OffsetDateTime startedAt, OffsetDateTime endedAt, List<AgentMessage> messages) {
    }

    /** A sub-agent's message: the task it was given, and its answer with its steps and usage. */
    public record AgentMessage(int messageIndex, String role, String content, OffsetDateTime timestamp,
            List<ThinkingStep> thinkingSteps, MessageView.Usage usage) {
    }

    /**
     * A legacy tool list entry (design.md § Legacy reasoning and tools), for readers that know only {@code reasoning}
     * and {@code tools}.
     */
    public record LegacyTool(String toolName, JsonNode toolArguments, String toolResult, String toolError) {
    }

    /** A trading model-day (design.md § Model-days). */
    public record Trading(String jobId, LocalDate date, String model) {
    }

    /** qa_results (design.md § QA results): pending until the QA judge has scored the session. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record QaResults(String status, Double score,
            @JsonRawValue @Schema(type = SchemaType.OBJECT, description = "The judge's scores, dimension by dimension")
            String rubric, String reason,
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
     * One message (design.md § Messages) with its ordered thinking steps, readable by readers of both generations
     * (design.md § Backward compatibility). A legacy message that has only reasoning text and a tool list gets steps
     * rebuilt the way older readers fall back (the reasoning first, then each tool in list order), flagged
     * {@code thinking_steps_reconstructed}; a message recorded with steps gets the legacy {@code reasoning} (its
     * reasoning steps' text, in order) and {@code tools} (its tool steps) for readers that know only those, flagged
     * {@code reasoning_and_tools_derived}. A message with neither has no {@code thinking_steps} at all, not an empty
     * list.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record MessageView(int messageIndex, String role, String content, String summary, String toolName,
            String toolInput, OffsetDateTime timestamp,
            @JsonRawValue @Schema(type = SchemaType.ARRAY, implementation = ThinkingStep.class) String thinkingSteps,
            Boolean thinkingStepsReconstructed, String reasoning,
            @JsonRawValue @Schema(type = SchemaType.ARRAY, implementation = LegacyTool.class) String tools,
            Boolean reasoningAndToolsDerived, Usage usage,
            @Schema(description = "What the answer's model calls were told besides the conversation") String
                    systemInstructions,
            @JsonRawValue @Schema(type = SchemaType.ARRAY, implementation = JsonNode.class, description = "The tools"
                    + " the answer's model calls were offered, as they were described to the model")
            String toolDefinitions) {

        public MessageView(int messageIndex, String role, String content, String summary, String toolName,
                String toolInput, OffsetDateTime timestamp, String thinkingSteps, Boolean thinkingStepsReconstructed,
                String reasoning, String tools) {
            this(messageIndex, role, content, summary, toolName, toolInput, timestamp, thinkingSteps,
                    thinkingStepsReconstructed, reasoning, tools, null, null, null, null);
        }

        static MessageView from(Row row) {
            String steps = row.getString("thinking_steps");
            String tools = row.getString("legacy_tools");
            String reasoning = row.getString("legacy_reasoning");
            Boolean reconstructed = null;
            Boolean derived = null;
            boolean noSteps = steps == null || steps.equals("[]");
            boolean noLegacy = reasoning == null && (tools == null || tools.equals("[]"));
            if (noSteps && !noLegacy) {
                steps = reconstruct(reasoning, tools == null ? null : new JsonArray(tools)).encode();
                reconstructed = true;
            } else if (noSteps) {
                steps = null;
            } else if (noLegacy) {
                JsonArray stored = new JsonArray(steps);
                reasoning = derivedReasoning(stored);
                tools = derivedTools(stored).encode();
                derived = true;
            }
            return new MessageView(row.getInteger("message_index"), row.getString("role"), row.getString("content"),
                    row.getString("summary"), row.getString("tool_name"), row.getString("tool_input"),
                    row.getOffsetDateTime("occurred_at"), steps, reconstructed, reasoning, tools, derived,
                    Usage.from(row), row.getString("system_instructions"), row.getString("tool_definitions"));
        }

        /** The reasoning steps' text in step order, a blank line between them; null when there is none. */
        static String derivedReasoning(JsonArray steps) {
            List<String> texts = new java.util.ArrayList<>();
            ordered(steps).stream().filter(step -> "reasoning".equals(step.getString("step_type")))
                    .map(step -> step.getString("content")).filter(text -> text != null && !text.isEmpty())
                    .forEach(texts::add);
            return texts.isEmpty() ? null : String.join("\n\n", texts);
        }

        /** The tool steps in step order, as legacy tools are served: tool_name, tool_arguments, result or error. */
        static JsonArray derivedTools(JsonArray steps) {
            JsonArray tools = new JsonArray();
            for (JsonObject step : ordered(steps)) {
                if ("tool".equals(step.getString("step_type"))) {
                    JsonObject tool = step.copy();
                    tool.remove("step_order");
                    tool.remove("step_type");
                    tool.remove("content");
                    // The legacy list says what legacy readers know of a tool; who took it is in the steps.
                    tool.remove("agent_id");
                    tool.remove("memory_operation");
                    tools.add(tool);
                }
            }
            return tools;
        }

        private static List<JsonObject> ordered(JsonArray steps) {
            List<JsonObject> ordered = new java.util.ArrayList<>();
            steps.forEach(step -> ordered.add((JsonObject) step));
            ordered.sort(java.util.Comparator.comparingInt(step -> step.getInteger("step_order", 0)));
            return ordered;
        }

        /**
         * What the model calls behind a message cost, as OpenTelemetry reports it (tokens from {@code
         * gen_ai.usage.*} or {@code llm.token_count.*}, latency from the calls' spans, time to first token for a
         * streamed answer); absent for messages sent through the event API, which does not carry it. Cache reads and
         * writes are part of the input tokens, reasoning part of the output tokens.
         */
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public record Usage(Long inputTokens, Long outputTokens, Long latencyMs, String model,
                Long cacheReadInputTokens, Long cacheWriteInputTokens, Long reasoningOutputTokens,
                Long timeToFirstTokenMs) {

            public Usage(Long inputTokens, Long outputTokens, Long latencyMs, String model) {
                this(inputTokens, outputTokens, latencyMs, model, null, null, null, null);
            }

            static Usage from(Row row) {
                Usage usage = new Usage(row.getLong("input_tokens"), row.getLong("output_tokens"),
                        row.getLong("latency_ms"), row.getString("model"), row.getLong("cache_read_input_tokens"),
                        row.getLong("cache_write_input_tokens"), row.getLong("reasoning_output_tokens"),
                        row.getLong("time_to_first_token_ms"));
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
                row.getString("positions"), row.getString("activities"), row.getString("agents_json"));
    }
}
