package dev.hindsight.ingest.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.sun.net.httpserver.HttpServer;
import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.PositionRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.ingest.publish.IngestConfig;
import dev.hindsight.platform.MessageFingerprint;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The conflict check against a local HTTP server speaking query-service's protocol, and failing open. */
class MessageConflictsTest {

    private final ObjectMapper json = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    private static Vertx vertx;

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void asksWithTheCallersKeyOnlyAboutMessagesAndMapsAnswersBackToEventPositions() throws Exception {
        AtomicReference<String> authorization = new AtomicReference<>();
        AtomicReference<String> asked = new AtomicReference<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/message-conflicts", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            asked.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            // The second candidate (position 1 among the messages) conflicts.
            byte[] answer = """
                    {"conflicts": [{"index": 1, "session_id": "s-1", "message_index": 7, "recorded_role": "user"}]}"""
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        try {
            MessageConflicts conflicts = new MessageConflicts(config(URI.create("http://127.0.0.1:"
                    + server.getAddress().getPort()), Duration.ofSeconds(5)), json, vertx);
            List<MessageConflicts.Conflict> found = conflicts.find("Bearer k", List.of(
                    message(0, "a"), position(), message(7, "b"))).await().atMost(Duration.ofSeconds(5));

            assertThat(found).containsExactly(new MessageConflicts.Conflict(2, "s-1", 7, "user"));
            assertThat(authorization.get()).isEqualTo("Bearer k");
            assertThat(json.readTree(asked.get()).get("messages")).hasSize(2);
            assertThat(json.readTree(asked.get()).at("/messages/1/message_index").asInt()).isEqualTo(7);
            // Fingerprints travel, not contents.
            assertThat(json.readTree(asked.get()).at("/messages/1/fingerprint").asText())
                    .isEqualTo(MessageFingerprint.of("user", "b", null, null));
            assertThat(asked.get()).doesNotContain("\"content\"");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void failsOpenWhenQueryServiceDoesNotAnswer() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        MessageConflicts conflicts = new MessageConflicts(config(URI.create("http://127.0.0.1:" + closedPort),
                Duration.ofSeconds(5)), json, vertx);
        assertThat(conflicts.find("Bearer k", List.of(message(0, "a"))).await().atMost(Duration.ofSeconds(5)))
                .isEmpty();
    }

    @Test
    void asksNothingWhenNotConfigured() {
        MessageConflicts conflicts = new MessageConflicts(config(null, Duration.ofSeconds(5)), json, vertx);
        assertThat(conflicts.find("Bearer k", List.of(message(0, "a"))).await().atMost(Duration.ofSeconds(1)))
                .isEmpty();
    }

    @Test
    void afterAnUnansweredCheckItDoesNotAskForThePause() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/message-conflicts", exchange -> {
            asked.incrementAndGet();
            // The JDK server closes the connection after each exchange; saying so keeps the client from sending the
            // next check on a connection being closed (which then waits out the client's timeout on a busy machine).
            exchange.getResponseHeaders().add("Connection", "close");
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        server.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            MessageConflicts paused = new MessageConflicts(config(url, Duration.ofMinutes(1)), json, vertx);
            assertThat(paused.find("Bearer k", List.of(message(0, "a"))).await().atMost(Duration.ofSeconds(5))).isEmpty();
            assertThat(paused.find("Bearer k", List.of(message(1, "b"))).await().atMost(Duration.ofSeconds(5))).isEmpty();
            assertThat(asked).hasValue(1);

            MessageConflicts eager = new MessageConflicts(config(url, Duration.ZERO), json, vertx);
            eager.find("Bearer k", List.of(message(0, "a"))).await().atMost(Duration.ofSeconds(5));
            eager.find("Bearer k", List.of(message(1, "b"))).await().atMost(Duration.ofSeconds(5));
            assertThat(asked).hasValue(3);
        } finally {
            server.stop(0);
        }
    }

    private static IngestConfig config(URI url, Duration pause) {
        return new IngestConfig() {
            @Override
            public Duration ackTimeout() {
                return Duration.ofSeconds(5);
            }

            @Override
            public Duration openCircuitFor() {
                return Duration.ofSeconds(5);
            }

            @Override
            public Optional<URI> conflictCheckUrl() {
                return Optional.ofNullable(url);
            }

            @Override
            public Duration conflictCheckTimeout() {
                return Duration.ofMillis(500);
            }

            @Override
            public Duration conflictCheckPause() {
                return pause;
            }

            @Override
            public boolean seal() {
                return true;
            }
        };
    }

    private static Outgoing<ReasoningEvent> message(int index, String content) {
        return event(MessageRecorded.newBuilder().setMessageIndex(index).setRole(MessageRole.USER).setContent(content)
                .setTimestamp(Instant.EPOCH).build());
    }

    private static Outgoing<ReasoningEvent> position() {
        return event(PositionRecorded.newBuilder().setActionId(1).setActionType("buy").build());
    }

    private static Outgoing<ReasoningEvent> event(Object payload) {
        UUID id = UUID.randomUUID();
        return new Outgoing<>("s-1", ReasoningEvent.newBuilder().setSessionId("s-1").setPayload(payload)
                .setHeader(EventHeader.newBuilder().setEventId(id).setTenantId("t").setOccurredAt(Instant.EPOCH)
                        .setRecordedAt(Instant.EPOCH).setProducer(ProducerIdentity.newBuilder().setPrincipal("p")
                                .build()).build()).build(), id.toString());
    }
}
