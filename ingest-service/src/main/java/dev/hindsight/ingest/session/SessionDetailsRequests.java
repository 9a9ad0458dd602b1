package dev.hindsight.ingest.session;

import com.fasterxml.jackson.annotation.JsonAlias;
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

/**
 * Bodies of the session sub-resources: positions (design.md § Positions), activities (design.md § Events),
 * completion.
 */
public final class SessionDetailsRequests {

    private SessionDetailsRequests() {
    }

    /** {@code POST /v1/sessions/{id}/positions}. */
    @Schema(name = "RecordPositions", example = """
            {"positions": [
              {"action_id": 1, "action_type": "buy", "symbol": "NVDA", "amount": 10, "price": 189.60,
               "cash_after": 8104.00, "portfolio_value": 10000.00},
              {"action_id": 2, "action_type": "buy", "symbol": "GOOGL", "amount": 6, "price": 245.15,
               "cash_after": 6633.10, "portfolio_value": 10104.00}]}""")
    public record RecordPositions(@NotEmpty @Size(max = 1000) List<@NotNull @Valid Position> positions)
            implements JsonBody {
    }

    /** A trading action of the model-day; action ids are unique per session. */
    @org.eclipse.microprofile.openapi.annotations.media.Schema(properties =
            @org.eclipse.microprofile.openapi.annotations.media.SchemaProperty(name = "cash",
                    type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.NUMBER, deprecated = true,
                    description = "The older name for cash_after"))
    public record Position(
            UUID eventId,
            @NotNull @PositiveOrZero Integer actionId,
            @NotNull ActionType actionType,
            @Size(max = 32) String symbol,
            Double amount,
            Double price,
            @JsonAlias("cash") Double cashAfter,
            Double portfolioValue,
            Double dailyProfit,
            Double dailyReturnPct,
            OffsetDateTime timestamp) {
    }

    /** Position actions (design.md § Positions). */
    public enum ActionType {
        @JsonProperty("buy") BUY,
        @JsonProperty("sell") SELL,
        @JsonProperty("hold") HOLD;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code POST /v1/sessions/{id}/activities}: trace events (design.md § Events), sent as they happen. */
    @Schema(name = "RecordActivities", example = """
            {"events": [
              {"event_id": "7d1c0a7e-0b8e-4f7e-9d7e-1a2b3c4d5e6f", "timestamp": "2025-10-29T16:05:10Z",
               "event_type": "thought_log", "payload": {"thought_text": "The failing test points at the parser."}},
              {"event_id": "0c9a7f52-3d1e-4b8a-a1f0-9e8d7c6b5a41", "timestamp_iso": "2025-10-29T16:07:00Z",
               "event_type": "command_run",
               "payload": {"command_text": "pytest tests/test_parser.py", "working_directory": ".", "exit_code": 1,
                           "stdout": "", "stderr": "AssertionError"}}]}""")
    public record RecordActivities(@NotEmpty @Size(max = 5000) List<@NotNull @Valid Activity> events)
            implements JsonBody {
    }

    /** One trace event; {@code timestamp} and {@code timestamp_iso} are both accepted (design.md § Events). */
    public record Activity(
            @NotBlank @Size(max = 128) String eventId,
            @Size(max = 64) String timestamp,
            @Size(max = 64) String timestampIso,
            @NotBlank @Size(max = 32) String eventType,
            @NotNull JsonNode payload,
            @PositiveOrZero Integer sequence) {
    }

    /** {@code POST /v1/sessions/{id}/complete}. */
    @Schema(name = "CompleteSession", example = """
            {"outcome": "success", "completed_at": "2025-10-02T10:05:23Z", "total_messages": 4}""")
    public record CompleteSession(
            UUID eventId,
            Outcome outcome,
            OffsetDateTime completedAt,
            @Size(max = 4_194_304) String finalCodeDiff,
            @PositiveOrZero Integer totalMessages,
            @Size(max = 4096) String summaryHint,
            Boolean judge) implements JsonBody {
    }

    /** How the session ended. */
    public enum Outcome {
        @JsonProperty("success") SUCCESS,
        @JsonProperty("failure") FAILURE,
        @JsonProperty("unknown") UNKNOWN;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
