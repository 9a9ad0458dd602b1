package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.events.Sealed;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.kafka.DecodingDeserializer;
import dev.hindsight.system.RunningSystem.Instance;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.system.Wire.Answer;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestRegistry;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What producers write is sealed before it reaches Kafka and read back exactly (ADR 0027), through two ingest
 * replicas that take each new session's first two requests at the same moment: each replica seals under a key of its
 * own, and every event opens in every consumer. The topic's bytes never hold the planted text, while they do hold
 * the session ids, which stay clear (the control that the scan sees text at all).
 */
class SealedEndToEndIT {

    private static final int SESSIONS = 12;
    private static final String TOPIC = "hindsight.reasoning.v1";
    private static RunningSystem system;
    private final Wire wire = new Wire(TestTenants.TENANT_A.bearer());

    @BeforeAll
    static void start() {
        system = RunningSystem.builder().replicas(Service.INGEST, 2).start();
    }

    @AfterAll
    static void stop() {
        if (system != null) {
            system.close();
        }
    }

    @Test
    void twoReplicasSealANewSessionUnderKeysOfTheirOwnAndEveryEventOpens() {
        Map<TopicPartition, Long> deadLettersBefore = DeadLetters.count();
        String run = UUID.randomUUID().toString().substring(0, 8);
        String first = system.url(new Instance(Service.INGEST, 1));
        String second = system.url(new Instance(Service.INGEST, 2));
        Map<String, String> titles = new HashMap<>();
        Map<String, String> contents = new HashMap<>();
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            String sessionId = "sealed-" + run + "-" + i;
            titles.put(sessionId, "Planted title " + UUID.randomUUID() + ", Anna Berg");
            contents.put(sessionId, "Planted content " + UUID.randomUUID() + ", anna.berg@example.com");
            ObjectNode start = Wire.JSON.createObjectNode().put("session_id", sessionId).put("kind", "chat")
                    .put("subject", "person-" + run);
            start.putObject("chat").put("title", titles.get(sessionId));
            ObjectNode messages = Wire.JSON.createObjectNode();
            messages.putArray("messages").addObject().put("message_index", 0).put("role", "user")
                    .put("content", contents.get(sessionId));
            answers.add(CompletableFuture.supplyAsync(() -> wire.post(first + "/v1/sessions", start, false)));
            answers.add(CompletableFuture.supplyAsync(() -> wire.post(second + "/v1/sessions/" + sessionId
                    + "/messages", messages, false)));
        }
        answers.forEach(answer -> assertThat(answer.join().status()).as(answer.join().toString()).isEqualTo(202));

        for (String sessionId : titles.keySet()) {
            JsonNode session = SessionAwait.until(system, sessionId,
                    s -> s.path("messages").size() == 1 && s.path("attributes").has("title"), "two ingest replicas");
            assertThat(session.path("attributes").path("title").asText()).isEqualTo(titles.get(sessionId));
            assertThat(session.path("attributes").path("subject").asText()).isEqualTo("person-" + run);
            assertThat(session.path("messages").get(0).path("content").asText()).isEqualTo(contents.get(sessionId));
        }
        assertThat(DeadLetters.since(deadLettersBefore)).as("dead-lettered").isEmpty();

        List<ConsumerRecord<String, byte[]>> stored = TestTopics.readRaw(TestKafka.bootstrapServers(), TOPIC,
                record -> titles.containsKey(record.key()), 2 * SESSIONS, Duration.ofSeconds(30));
        assertThat(stored).hasSize(2 * SESSIONS);
        Map<String, Set<String>> keysBySession = new HashMap<>();
        try (DecodingDeserializer blind = new DecodingDeserializer(() -> null)) {
            blind.configure(Map.of("apicurio.registry.url", TestRegistry.url()), false);
            for (ConsumerRecord<String, byte[]> record : stored) {
                for (String planted : List.of(titles.get(record.key()), contents.get(record.key()))) {
                    assertThat(contains(record.value(), planted)).as("planted text on the topic").isFalse();
                }
                assertThat(contains(record.value(), record.key())).as("the clear session id (control)").isTrue();
                Decoded sealed = blind.deserialize(TOPIC, record.value());
                assertThat(sealed.unopened()).as("sealed, so unopened without keys").isTrue();
                keysBySession.computeIfAbsent(record.key(), k -> new HashSet<>())
                        .add(((Sealed) ((SpecificRecordBase) sealed.envelope()).get("payload")).getKeyId());
            }
        }
        // Neither replica had met the session: each sealed its request under a key it issued.
        keysBySession.forEach((session, keys) -> assertThat(keys).as(session).hasSize(2));
    }

    private static boolean contains(byte[] haystack, String needle) {
        return new String(haystack, StandardCharsets.ISO_8859_1)
                .contains(new String(needle.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
    }
}
