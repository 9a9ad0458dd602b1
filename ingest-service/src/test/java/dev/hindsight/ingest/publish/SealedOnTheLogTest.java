package dev.hindsight.ingest.publish;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.datakeys.DataKeyCreated;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.datakeys.DataKeyScope;
import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.platform.crypto.DataKeyRing;
import dev.hindsight.platform.crypto.DataKeyVault;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.kafka.DataKeyFeed;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.kafka.DecodingDeserializer;
import dev.hindsight.platform.kafka.SealedEnvelopes;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What ingest publishes is sealed (ADR 0027), on the real broker and registry: the bytes on the topic do not hold what
 * the producer wrote, a consumer's deserializer opens them back to the event as sent, reads them as erased once their
 * key is destroyed, refuses them changed, and waits (never drops) for a key it cannot find yet.
 */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class SealedOnTheLogTest {

    private static final String TOPIC = "hindsight.reasoning.v1";

    @Inject
    DataKeyFeed feed;
    @Inject
    DataKeyIssuer issuer;
    @Inject
    Kms kms;
    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafka;
    @Inject
    Config config;

    private DecodingDeserializer consumer;

    @BeforeEach
    void aConsumersDeserializer() {
        consumer = new DecodingDeserializer(feed::vault);
        consumer.configure(SealedEnvelopes.serdeSettings(kafka, config), false);
    }

    @AfterEach
    void close() {
        consumer.close();
    }

    @Test
    void whatTheProducerWroteIsNotOnTheTopicAndOpensAsSent() {
        String planted = "Planted " + UUID.randomUUID() + ": Anna Berg, anna.berg@example.com";
        String eventId = start(planted);

        ConsumerRecord<String, byte[]> raw = raw(eventId);
        assertThat(contains(raw.value(), planted)).as("the planted text on the topic").isFalse();
        // The control: the clear header is there, so a reader of these bytes sees text when there is some.
        assertThat(contains(raw.value(), "tenant-a")).as("the clear tenant id").isTrue();

        Decoded opened = consumer.deserialize(TOPIC, raw.value());
        assertThat(opened.seal()).isEqualTo(Decoded.Seal.OPENED);
        SessionStarted started = (SessionStarted) ((SpecificRecordBase) opened.envelope()).get("payload");
        assertThat(started.getChat().getTitle()).isEqualTo(planted);
    }

    @Test
    void aDestroyedKeyErasesTheEventAndAChangedOneIsUnreadable() {
        String eventId = start("to be erased " + UUID.randomUUID());
        ConsumerRecord<String, byte[]> raw = raw(eventId);

        byte[] changed = raw.value().clone();
        changed[changed.length - 1] ^= 1;
        Decoded tampered = consumer.deserialize(TOPIC, changed);
        assertThat(tampered.envelope()).isNull();
        assertThat(tampered.failure()).hasMessageContaining("was changed or moved");

        Decoded opened = consumer.deserialize(TOPIC, raw.value());
        String keyId = ((dev.hindsight.events.Sealed) sealedEnvelope(opened, raw).get("payload")).getKeyId();
        issuer.destroy(TenantId.of("tenant-a"), keyId, ErasureReason.SESSION_ERASED).await()
                .atMost(Duration.ofSeconds(10));

        // The destruction is read before the key is asked for again: the vault reads the key topic to its end.
        Decoded erased = await(() -> consumer.deserialize(TOPIC, raw.value()), Decoded::erased);
        assertThat(erased.erased()).isTrue();
        assertThat(erased.failure()).isNull();
    }

    @Test
    void aSessionAboutAPersonIsErasedWithThePersonsKey() {
        String subject = "subject-" + UUID.randomUUID();
        String eventId = given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body(Map.of("kind", "chat", "subject", subject, "chat", Map.of("title", "about a person")))
                .when().post("/v1/sessions").then().statusCode(202).extract().path("receipts[0].event_id");
        ConsumerRecord<String, byte[]> raw = raw(eventId);
        Decoded opened = consumer.deserialize(TOPIC, raw.value());
        assertThat(((SessionStarted) ((SpecificRecordBase) opened.envelope()).get("payload")).getSubject())
                .isEqualTo(subject);

        // The session's key is wrapped under the person's; the person's names no owner, and the subject is nowhere
        // on the key topic.
        String sessionKey = ((dev.hindsight.events.Sealed) sealedEnvelope(opened, raw).get("payload")).getKeyId();
        List<DataKeyEvent> keys = TestTopics.readAll(TestKafka.bootstrapServers(),
                HindsightTopic.DATA_KEYS.defaultName(), DataKeyEvent.class);
        DataKeyCreated session = created(keys, sessionKey);
        assertThat(session.getOwner()).isEqualTo(((SpecificRecordBase) opened.envelope()).get("session_id"));
        assertThat(session.getParentKeyId()).isNotNull();
        DataKeyCreated person = created(keys, session.getParentKeyId());
        assertThat(person.getScope()).isEqualTo(DataKeyScope.SUBJECT);
        assertThat(person.getOwner()).isNull();
        assertThat(TestTopics.readRaw(TestKafka.bootstrapServers(), HindsightTopic.DATA_KEYS.defaultName(),
                record -> contains(record.value(), subject), 1, Duration.ofSeconds(2))).isEmpty();

        issuer.destroy(TenantId.of("tenant-a"), session.getParentKeyId(), ErasureReason.SUBJECT_ERASED).await()
                .atMost(Duration.ofSeconds(10));
        assertThat(await(() -> consumer.deserialize(TOPIC, raw.value()), Decoded::erased).erased()).isTrue();
    }

    private static DataKeyCreated created(List<DataKeyEvent> keys, String keyId) {
        return keys.stream().filter(k -> k.getKeyId().equals(keyId) && k.getPayload() instanceof DataKeyCreated)
                .map(k -> (DataKeyCreated) k.getPayload()).findFirst()
                .orElseThrow(() -> new AssertionError("no key " + keyId + " on the key topic"));
    }

    @Test
    void anEventUnderAKeyNotOnTheKeyTopicIsWaitedForNeverDropped() {
        // Sealed under a key made here and never published: as an event whose key a consumer has not read yet.
        DataKeys.DataKey unpublished = DataKeys.create(TenantId.of("tenant-a"), DataKeys.Scope.SESSION,
                kms.keyEncryptionKey(TenantId.of("tenant-a"), kms.currentVersion())).key();
        String eventId = start("sealed under an unknown key " + UUID.randomUUID());
        Decoded published = consumer.deserialize(TOPIC, raw(eventId).value());
        SpecificRecordBase clear = (SpecificRecordBase) published.envelope();
        byte[] bytes;
        try (SealedEnvelopes sealing = new SealedEnvelopes(kafka, config);
                Serializer<Object> serializer = new dev.hindsight.platform.kafka.EnvelopeSerializer<>()) {
            serializer.configure(SealedEnvelopes.serdeSettings(kafka, config), false);
            bytes = serializer.serialize(TOPIC, sealing.seal(TOPIC, clear, unpublished));
        }

        Decoded waiting = consumer.deserialize(TOPIC, bytes);
        assertThat(waiting.unopened()).isTrue();
        assertThat(waiting.failure()).hasMessageContaining("not on the key topic yet");
        assertThat(waiting.reopen().get().unopened()).as("asked again, still waiting").isTrue();

        // A key store that does not answer: the first record of a batch waits its five seconds, the next ones none,
        // so that a polled batch does not hold the polling thread for five seconds a record.
        DataKeyVault away = new DataKeyVault(new DataKeyRing(), kms, () -> new CompletableFuture<Void>());
        DecodingDeserializer stalled = new DecodingDeserializer(() -> away);
        stalled.configure(Map.of("apicurio.registry.url", dev.hindsight.testing.TestRegistry.url()), false);
        assertThat(stalled.deserialize(TOPIC, bytes).failure()).hasMessageContaining("not read within 5000 ms");
        Decoded next = stalled.deserialize(TOPIC, bytes);
        assertThat(next.unopened()).as("waited for, not dropped").isTrue();
        assertThat(next.failure()).hasMessageContaining("not read within 0 ms");
        stalled.close();
    }

    private static SpecificRecordBase sealedEnvelope(Decoded opened, ConsumerRecord<String, byte[]> raw) {
        assertThat(opened.seal()).isEqualTo(Decoded.Seal.OPENED);
        // The sealed envelope as stored: read without a vault, it stays unopened and keeps its Sealed payload.
        DecodingDeserializer blind = new DecodingDeserializer(() -> null);
        blind.configure(Map.of("apicurio.registry.url", dev.hindsight.testing.TestRegistry.url()), false);
        Decoded stored = blind.deserialize(TOPIC, raw.value());
        blind.close();
        assertThat(stored.unopened()).isTrue();
        return (SpecificRecordBase) stored.envelope();
    }

    private static Decoded await(java.util.function.Supplier<Decoded> read,
            java.util.function.Predicate<Decoded> until) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Decoded last = read.get();
        while (!until.test(last) && System.nanoTime() < deadline) {
            last = read.get();
        }
        return last;
    }

    private static String start(String title) {
        return given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body(Map.of("kind", "chat", "chat", Map.of("agent", "support-bot", "model", "m", "title", title)))
                .when().post("/v1/sessions").then().statusCode(202).extract().path("receipts[0].event_id");
    }

    private static ConsumerRecord<String, byte[]> raw(String eventId) {
        List<ConsumerRecord<String, byte[]>> found = TestTopics.readRaw(TestKafka.bootstrapServers(), TOPIC,
                record -> contains(record.value(), eventId), 1,
                Duration.ofSeconds(20));
        assertThat(found).as("the event on the topic").hasSize(1);
        return found.get(0);
    }

    private static boolean contains(byte[] haystack, String needle) {
        byte[] bytes = needle.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + bytes.length <= haystack.length; i++) {
            for (int j = 0; j < bytes.length; j++) {
                if (haystack[i + j] != bytes[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
