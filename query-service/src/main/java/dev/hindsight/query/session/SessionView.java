package dev.hindsight.query.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;

/** A session as dashboards read it: its attributes and its messages in conversation order. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionView(String sessionId, String kind, OffsetDateTime startedAt, OffsetDateTime completedAt,
        String outcome, Trading trading, @JsonRawValue String attributes, @JsonRawValue String labels,
        int totalMessages, List<MessageView> messages) {

    /** Seed 000's model-day. */
    public record Trading(String jobId, LocalDate date, String model) {
    }

    /** One message (seed 000 reasoning_logs row) with its ordered thinking steps (seed 001). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record MessageView(int messageIndex, String role, String content, String toolName, String toolInput,
            OffsetDateTime timestamp, @JsonRawValue String thinkingSteps, String reasoning,
            @JsonRawValue String tools) {

        static MessageView from(Row row) {
            JsonArray steps = row.getJsonArray("thinking_steps");
            JsonArray tools = row.getJsonArray("legacy_tools");
            return new MessageView(row.getInteger("message_index"), row.getString("role"), row.getString("content"),
                    row.getString("tool_name"), row.getString("tool_input"), row.getOffsetDateTime("occurred_at"),
                    steps == null ? "[]" : steps.encode(), row.getString("legacy_reasoning"),
                    tools == null ? null : tools.encode());
        }
    }

    static SessionView from(Row row, List<MessageView> messages) {
        String jobId = row.getString("job_id");
        Trading trading = jobId == null ? null
                : new Trading(jobId, row.getLocalDate("trading_date"), row.getString("model"));
        JsonObject attributes = row.getJsonObject("attributes");
        JsonObject labels = row.getJsonObject("labels");
        return new SessionView(row.getString("session_id"), row.getString("kind"), row.getOffsetDateTime("started_at"),
                row.getOffsetDateTime("completed_at"), row.getString("outcome"), trading,
                attributes == null || attributes.isEmpty() ? null : attributes.encode(),
                labels == null || labels.isEmpty() ? null : labels.encode(),
                row.getInteger("total_messages"), messages);
    }
}
