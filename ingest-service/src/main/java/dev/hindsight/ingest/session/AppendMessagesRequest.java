package dev.hindsight.ingest.session;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.ingest.request.JsonBody;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Body of {@code POST /v1/sessions/{id}/messages}: one or many conversation messages. */
@Schema(name = "AppendMessages", example = """
        {"messages": [
          {"message_index": 0, "role": "user", "content": "Please analyze and update today's (2025-10-02) positions.",
           "timestamp": "2025-10-02T10:00:00Z"},
          {"message_index": 1, "role": "assistant", "content": "Key intermediate steps ...",
           "timestamp": "2025-10-02T10:05:20Z",
           "thinking_steps": [
             {"step_order": 0, "step_type": "reasoning", "content": "Read yesterday's positions first."},
             {"step_order": 1, "step_type": "tool", "tool_name": "get_positions", "tool_arguments": {"date": "2025-10-01"},
              "tool_result": "{\\"cash\\": 10000}"}]}]}""")
public record AppendMessagesRequest(@NotEmpty @Size(max = 1000) List<@NotNull @Valid Message> messages)
        implements JsonBody {

    /** One message of the conversation (design.md § Messages), with its thinking steps (design.md § Thinking steps). */
    public record Message(
            UUID eventId,
            @NotNull @PositiveOrZero Integer messageIndex,
            @NotNull Role role,
            @NotNull @Size(max = 1_048_576) String content,
            @Size(max = 256) String toolName,
            JsonNode toolInput,
            OffsetDateTime timestamp,
            @Size(max = 1000) List<@NotNull @Valid ThinkingStep> thinkingSteps,
            @Size(max = 1_048_576) String reasoning,
            @Size(max = 1000) List<@NotNull @Valid LegacyTool> tools) {
    }

    /** Who wrote a message. */
    public enum Role {
        @JsonProperty("user") USER,
        @JsonProperty("assistant") ASSISTANT,
        @JsonProperty("tool") TOOL;

        private final String wire = name().toLowerCase(Locale.ROOT);

        @Override
        public String toString() {
            return wire;
        }
    }

    /** One reasoning block or tool call, at its exact position (design.md § Thinking steps). */
    public record ThinkingStep(
            @NotNull @PositiveOrZero Integer stepOrder,
            @NotNull StepType stepType,
            @Size(max = 1_048_576) String content,
            @Size(max = 256) String toolName,
            JsonNode toolArguments,
            @Size(max = 1_048_576) String toolResult,
            @Size(max = 65_536) String toolError) {
    }

    /** Kind of thinking step. */
    public enum StepType {
        @JsonProperty("reasoning") REASONING,
        @JsonProperty("tool") TOOL;

        private final String wire = name().toLowerCase(Locale.ROOT);

        @Override
        public String toString() {
            return wire;
        }
    }

    /**
     * The legacy shape (design.md § Legacy reasoning and tools): a tool call whose position among the reasoning is
     * unknown.
     */
    public record LegacyTool(@NotBlank @Size(max = 256) String name, JsonNode arguments,
            @Size(max = 1_048_576) String result, @Size(max = 65_536) String error) {
    }
}
