package dev.hindsight.platform.kafka;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.datakeys.DataKeyDestroyed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.platform.crypto.DataKeyRing;
import dev.hindsight.platform.crypto.DataKeyVault;
import dev.hindsight.platform.crypto.Kms;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.Config;

/**
 * Reads all of {@code hindsight.datakeys.v1} into a {@link DataKeyRing} on every replica of every service
 * ({@link TopicFollower}), and opens keys from it through a {@link DataKeyVault}: how a consumer opens what any
 * replica of any service sealed (ADR 0027). A key it meets before reading it makes it read the topic to its end first.
 * It starts reading when first asked for a key, so a service that only seals (ingest) never holds the ring, whose
 * size grows with every key issued. The KMS is asked for a tenant's key-encryption key only when a key under it is
 * first opened.
 */
@ApplicationScoped
public class DataKeyFeed {

    private final DataKeyRing ring = new DataKeyRing();
    private final TopicFollower follower;
    private final DataKeyVault vault;
    private final AtomicBoolean started = new AtomicBoolean();

    public DataKeyFeed(@Identifier("default-kafka-broker") Map<String, Object> kafka, Config config, Instance<Kms> kms) {
        this.vault = new DataKeyVault(ring, new LazyKms(kms), () -> follower().readTo());
        this.follower = new TopicFollower(OwnedTopics.name(config, HindsightTopic.DATA_KEYS), "data-key-feed", kafka,
                config, envelope -> {
                    if (envelope instanceof DataKeyEvent key) {
                        ring.apply(key);
                        if (key.getPayload() instanceof DataKeyDestroyed) {
                            vault.forget(key.getKeyId());
                        }
                    }
                });
    }

    private TopicFollower follower() {
        return follower;
    }

    private void started() {
        if (!started.get() && started.compareAndSet(false, true)) {
            follower.start();
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        if (started.get()) {
            follower.stop();
        }
    }

    /** Opens the keys read so far, reading on when it meets one it has not read. */
    public DataKeyVault vault() {
        started();
        return vault;
    }

    /** The keys read so far: what erasure looks keys up in. */
    public DataKeyRing ring() {
        started();
        return ring;
    }

    /** Whether every key the topic held when this service started has been read. */
    public boolean caughtUp() {
        return follower.caughtUp();
    }

    /** The deployment's KMS, made when first needed: a service that never opens a key needs no master key. */
    private record LazyKms(Instance<Kms> kms) implements Kms {

        @Override
        public com.google.crypto.tink.Aead keyEncryptionKey(dev.hindsight.platform.tenant.TenantId tenant, int version) {
            return kms.get().keyEncryptionKey(tenant, version);
        }

        @Override
        public int currentVersion() {
            return kms.get().currentVersion();
        }

        @Override
        public byte[] keyedHash(dev.hindsight.platform.tenant.TenantId tenant, byte[] data) {
            return kms.get().keyedHash(tenant, data);
        }
    }
}
