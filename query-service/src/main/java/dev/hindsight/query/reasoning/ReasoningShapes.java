package dev.hindsight.query.reasoning;

import dev.hindsight.query.session.SessionView;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * What {@code GET /reasoning} answers, for the published OpenAPI document: {@link ReasoningQuery} writes the answer as
 * JSON, and these records only describe it.
 */
final class ReasoningShapes {

    private ReasoningShapes() {
    }

    /** One page of model-days; {@code next_cursor} is present when more follow. */
    public record ReasoningPage(List<ModelDay> sessions, int count, long total, String nextCursor) {
    }

    /** A model-day (design.md § Model-days), with its positions and, on request, its conversation. */
    public record ModelDay(String sessionId, String jobId, LocalDate date, String model, String sessionSummary,
            OffsetDateTime startedAt, OffsetDateTime completedAt, int totalMessages,
            List<SessionView.Position> positions, List<ConversationMessage> conversation) {
    }

    /** A message of the conversation; assistant messages carry their summary. */
    public record ConversationMessage(int messageIndex, String role, String content, String summary,
            OffsetDateTime timestamp) {
    }
}
