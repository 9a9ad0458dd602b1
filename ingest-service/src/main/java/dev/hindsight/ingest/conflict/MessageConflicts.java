package dev.hindsight.ingest.conflict;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.ingest.publish.IngestConfig;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Asks query-service which messages of a request conflict with messages already recorded at the same index (ADR 0005).
 * One non-blocking HTTP call per request, with the caller's own credential (so the tenant is the caller's). The check
 * fails open: when query-service does not answer in time, or is not configured, the messages are published and the
 * read model keeps the first message per index, as it always does.
 */
@ApplicationScoped
public class MessageConflicts {

    private static final Logger LOG = Logger.getLogger(MessageConflicts.class);

    /** A candidate as query-service's {@code POST /v1/message-conflicts} takes it. */
    record Candidate(String sessionId, int messageIndex, String role, String content, String toolName,
            String toolInput) {
    }

    record Check(List<Candidate> messages) {
    }

    /** One conflict: the candidate's position in the request and what is recorded at its index. */
    public record Conflict(int index, String sessionId, int messageIndex, String recordedRole) {

        /** What a producer is told, whichever endpoint refused the message. */
        public String reason() {
            return "message " + messageIndex + " of session " + sessionId + " is already recorded with different "
                    + "content (role " + recordedRole + "); message indexes are unique per session";
        }
    }

    record Conflicts(List<Conflict> conflicts) {
    }

    private final IngestConfig config;
    private final ObjectMapper json;
    private final HttpClient http;
    private final AtomicLong unanswered = new AtomicLong();

    public MessageConflicts(IngestConfig config, ObjectMapper json) {
        this.config = config;
        this.json = json;
        this.http = HttpClient.newBuilder().connectTimeout(config.conflictCheckTimeout()).build();
    }

    /**
     * The conflicts among {@code events}' messages; {@link Conflict#index()} is the event's position in the list.
     * Never fails: an unanswered check is no conflict.
     */
    public Uni<List<Conflict>> find(String authorization, List<Outgoing<ReasoningEvent>> events) {
        if (config.conflictCheckUrl().isEmpty() || authorization == null) {
            return Uni.createFrom().item(List.of());
        }
        List<Candidate> candidates = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            ReasoningEvent event = events.get(i).value();
            if (event.getPayload() instanceof MessageRecorded message) {
                candidates.add(new Candidate(event.getSessionId(), message.getMessageIndex(),
                        message.getRole().name().toLowerCase(Locale.ROOT), message.getContent(),
                        message.getToolName(), message.getToolInput()));
                positions.add(i);
            }
        }
        if (candidates.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        byte[] body;
        try {
            body = json.writeValueAsBytes(new Check(candidates));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        URI uri = config.conflictCheckUrl().get().resolve("/v1/message-conflicts");
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(config.conflictCheckTimeout())
                .header("Authorization", authorization).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        Context context = Vertx.currentContext();
        Uni<List<Conflict>> answer = Uni.createFrom()
                .completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()))
                .map(response -> {
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException("query-service answered " + response.statusCode());
                    }
                    try {
                        List<Conflict> found = new ArrayList<>();
                        for (Conflict conflict : json.readValue(response.body(), Conflicts.class).conflicts()) {
                            found.add(new Conflict(positions.get(conflict.index()), conflict.sessionId(),
                                    conflict.messageIndex(), conflict.recordedRole()));
                        }
                        return found;
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException("unreadable answer from query-service", e);
                    }
                })
                .onFailure().recoverWithItem(failure -> {
                    long count = unanswered.incrementAndGet();
                    if (count == 1 || count % 1000 == 0) {
                        LOG.warnf("Message conflict check unanswered (%d so far), publishing anyway: %s", count,
                                failure.toString());
                    }
                    return List.of();
                });
        // Continue on the request's own context, as the rest of the request expects.
        return context == null ? answer : answer.emitOn(runnable -> context.runOnContext(ignored -> runnable.run()));
    }
}
