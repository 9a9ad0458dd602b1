package dev.hindsight.ingest.conflict;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.ingest.publish.IngestConfig;
import dev.hindsight.platform.MessageFingerprint;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Asks query-service which messages of a request conflict with messages already recorded at the same index (ADR 0005).
 * One non-blocking HTTP call per request on a pooled keep-alive connection, with the caller's own credential (so the
 * tenant is the caller's), carrying each message's {@link MessageFingerprint} rather than its content. The check fails
 * open: when query-service does not answer in time, or is not configured, the messages are published and the read
 * model keeps the first message per index, as it always does; after an unanswered check, requests do not ask for
 * {@code conflict-check-pause}.
 */
@ApplicationScoped
public class MessageConflicts {

    private static final Logger LOG = Logger.getLogger(MessageConflicts.class);

    /** A candidate as query-service's {@code POST /v1/message-conflicts} takes it. */
    record Candidate(String sessionId, int messageIndex, String fingerprint) {
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
    private final RequestOptions target;
    private final AtomicLong unanswered = new AtomicLong();
    /** While now is before this (System.nanoTime), checks are skipped: the last one went unanswered. */
    private final AtomicLong pausedUntil = new AtomicLong(System.nanoTime());

    public MessageConflicts(IngestConfig config, ObjectMapper json, Vertx vertx) {
        this.config = config;
        this.json = json;
        URI base = config.conflictCheckUrl().orElse(null);
        if (base == null) {
            this.http = null;
            this.target = null;
            return;
        }
        boolean tls = "https".equalsIgnoreCase(base.getScheme());
        int port = base.getPort() > 0 ? base.getPort() : tls ? 443 : 80;
        this.http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setSsl(tls)
                .setConnectTimeout((int) config.conflictCheckTimeout().toMillis()).setMaxPoolSize(8));
        this.target = new RequestOptions().setMethod(HttpMethod.POST).setHost(base.getHost()).setPort(port)
                .setSsl(tls).setURI(base.resolve("/v1/message-conflicts").getRawPath())
                .setTimeout(config.conflictCheckTimeout().toMillis())
                .putHeader("Content-Type", "application/json");
    }

    @PreDestroy
    void close() {
        if (http != null) {
            http.close();
        }
    }

    /**
     * The conflicts among {@code events}' messages; {@link Conflict#index()} is the event's position in the list.
     * Never fails: an unanswered check is no conflict.
     */
    public Uni<List<Conflict>> find(String authorization, List<Outgoing<ReasoningEvent>> events) {
        if (http == null || authorization == null || System.nanoTime() - pausedUntil.get() < 0) {
            return Uni.createFrom().item(List.of());
        }
        List<Candidate> candidates = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            ReasoningEvent event = events.get(i).value();
            if (event.getPayload() instanceof MessageRecorded message) {
                candidates.add(new Candidate(event.getSessionId(), message.getMessageIndex(), MessageFingerprint.of(
                        message.getRole().name().toLowerCase(Locale.ROOT), message.getContent(),
                        message.getToolName(), message.getToolInput())));
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
        RequestOptions request = new RequestOptions(target).putHeader("Authorization", authorization);
        Context context = Vertx.currentContext();
        Uni<List<Conflict>> answer = Uni.createFrom().completionStage(() -> http.request(request)
                        .compose(sent -> sent.send(Buffer.buffer(body)))
                        .compose(response -> {
                            if (response.statusCode() != 200) {
                                return response.body().transform(ignored -> io.vertx.core.Future.failedFuture(
                                        new IllegalStateException("query-service answered " + response.statusCode())));
                            }
                            return response.body();
                        })
                        .toCompletionStage())
                .map(bytes -> {
                    try {
                        List<Conflict> found = new ArrayList<>();
                        for (Conflict conflict : json.readValue(bytes.getBytes(), Conflicts.class).conflicts()) {
                            found.add(new Conflict(positions.get(conflict.index()), conflict.sessionId(),
                                    conflict.messageIndex(), conflict.recordedRole()));
                        }
                        return found;
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException("unreadable answer from query-service", e);
                    }
                })
                .onFailure().recoverWithItem(failure -> {
                    pausedUntil.set(System.nanoTime() + config.conflictCheckPause().toNanos());
                    long count = unanswered.incrementAndGet();
                    if (count == 1 || count % 100 == 0) {
                        LOG.warnf("Message conflict check unanswered (%d so far), publishing anyway and not asking "
                                + "for %d ms: %s", count, config.conflictCheckPause().toMillis(), failure.toString());
                    }
                    return List.of();
                });
        // Continue on the request's own context, as the rest of the request expects.
        return context == null ? answer : answer.emitOn(runnable -> context.runOnContext(ignored -> runnable.run()));
    }
}
