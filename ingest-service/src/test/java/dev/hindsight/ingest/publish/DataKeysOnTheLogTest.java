package dev.hindsight.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.platform.crypto.DataKeyRing;
import dev.hindsight.platform.crypto.DataKeyVault;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.crypto.Sealing;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.TopicFollower;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestKafka;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Data keys on the real broker (ADR 0027): a key issued by ingest is durable when answered, and a reader that follows
 * {@code hindsight.datakeys.v1} as every consumer will (the whole topic, into a {@link DataKeyRing}) opens it through
 * its chain, unwraps nothing once a key above it is destroyed, and tells a key it has never seen from a destroyed one.
 */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class DataKeysOnTheLogTest {

    private static final TenantId TENANT = TenantId.of("tenant-a");
    private static final byte[] TEXT = "Anna Berg, anna.berg@example.com, asked about invoice 4471"
            .getBytes(StandardCharsets.UTF_8);

    @Inject
    DataKeyIssuer issuer;
    @Inject
    Kms kms;
    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafka;
    @Inject
    Config config;

    private TopicFollower follower;
    private DataKeyVault vault;

    @BeforeEach
    void followTheKeys() {
        DataKeyRing ring = new DataKeyRing();
        follower = new TopicFollower(HindsightTopic.DATA_KEYS.defaultName(), "data-key-test", kafka, config,
                envelope -> ring.apply((DataKeyEvent) envelope));
        follower.start();
        vault = new DataKeyVault(ring, kms, follower::readTo);
    }

    @AfterEach
    void stop() {
        follower.stop();
    }

    private DataKeyVault.Opening open(String keyId) throws Exception {
        return vault.open(TENANT, keyId).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aSessionKeyUnderASubjectsKeyOpensUntilTheSubjectsKeyIsDestroyed() throws Exception {
        DataKeys.DataKey subject = issuer.issue(TENANT, DataKeys.Scope.SUBJECT, "subject-hash", null).await()
                .atMost(Duration.ofSeconds(30));
        DataKeys.DataKey session = issuer.issue(TENANT, DataKeys.Scope.SESSION, "session-1", subject).await()
                .atMost(Duration.ofSeconds(30));
        UUID event = UUID.randomUUID();
        byte[] sealed = Sealing.seal(session, TEXT, TENANT, "session-1", event);

        DataKeyVault.Opening opened = open(session.keyId());
        assertThat(opened).isInstanceOf(DataKeyVault.Open.class);
        assertThat(Sealing.open(((DataKeyVault.Open) opened).key(), sealed, TENANT, "session-1", event))
                .isEqualTo(TEXT);

        issuer.destroy(TENANT, subject.keyId(), ErasureReason.SUBJECT_ERASED).await().atMost(Duration.ofSeconds(30));
        follower.readTo().get(30, TimeUnit.SECONDS);

        assertThat(open(subject.keyId())).isEqualTo(new DataKeyVault.Erased(subject.keyId()));
        assertThat(open(session.keyId())).as("a key under a destroyed key is erased with it")
                .isEqualTo(new DataKeyVault.Erased(session.keyId()));
    }

    @Test
    void aKeyNeverIssuedIsMissingOnceTheWholeTopicIsReadNotErased() throws Exception {
        String unknown = UUID.randomUUID().toString();

        assertThat(open(unknown)).isEqualTo(new DataKeyVault.Missing(unknown));
    }

    @Test
    void theKeyTopicIsCompactedSoThatADestroyedKeysMaterialLeavesTheBrokers() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestKafka.bootstrapServers()))) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC,
                    HindsightTopic.DATA_KEYS.defaultName());
            var configs = admin.describeConfigs(List.of(topic)).all().get(30, TimeUnit.SECONDS).get(topic);
            assertThat(configs.get("cleanup.policy").value()).isEqualTo("compact");
            assertThat(Long.parseLong(configs.get("max.compaction.lag.ms").value()))
                    .isEqualTo(TimeUnit.HOURS.toMillis(1));
        }
    }
}
