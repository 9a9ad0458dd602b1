package dev.hindsight.platform.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.datakeys.DataKeyCreated;
import dev.hindsight.events.datakeys.DataKeyDestroyed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.datakeys.DataKeyScope;
import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The vault over a ring fed by hand: what a reader of the key topic concludes from what it has read. */
class DataKeyVaultTest {

    private static final TenantId ACME = TenantId.of("acme");
    private static final LocalKms KMS = new LocalKms(Map.of(1, LocalKmsTest.MASTER_1, 2, LocalKmsTest.MASTER_2), 2);

    private final DataKeyRing ring = new DataKeyRing();
    /** Events "published" but not read yet: reading the topic to its end applies them. */
    private final List<DataKeyEvent> unread = new ArrayList<>();
    private final DataKeyVault vault = new DataKeyVault(ring, KMS, this::readToEnd);

    private CompletionStage<Void> readToEnd() {
        unread.forEach(ring::apply);
        unread.clear();
        return CompletableFuture.completedFuture(null);
    }

    private static DataKeyEvent created(DataKeys.Created key, String parent, Integer kekVersion) {
        return event(key.wrapped().keyId(), key.wrapped().tenant(), DataKeyCreated.newBuilder()
                .setScope(DataKeyScope.valueOf(key.wrapped().scope().name())).setParentKeyId(parent)
                .setKekVersion(kekVersion).setWrapped(ByteBuffer.wrap(key.wrapped().wrapped())).build());
    }

    private static DataKeyEvent destroyed(String keyId) {
        return event(keyId, ACME, DataKeyDestroyed.newBuilder().setReason(ErasureReason.SESSION_ERASED).build());
    }

    private static DataKeyEvent event(String keyId, TenantId tenant, Object payload) {
        Instant now = Instant.now();
        EventHeader header = EventHeader.newBuilder().setEventId(UUID.randomUUID()).setTenantId(tenant.value())
                .setOccurredAt(now).setRecordedAt(now)
                .setProducer(ProducerIdentity.newBuilder().setPrincipal("test").build()).build();
        return DataKeyEvent.newBuilder().setHeader(header).setKeyId(keyId).setPayload(payload).build();
    }

    private DataKeyVault.Opening open(String keyId) throws Exception {
        return vault.open(ACME, keyId).toCompletableFuture().get();
    }

    @Test
    void aKeyNotReadYetIsLookedForToTheEndOfTheTopicAndOnlyThenMissing() throws Exception {
        DataKeys.Created key = DataKeys.create(ACME, DataKeys.Scope.SESSION, KMS.keyEncryptionKey(ACME, 2));
        unread.add(created(key, null, 2));

        assertThat(open(key.key().keyId())).isInstanceOf(DataKeyVault.Open.class);
        String never = UUID.randomUUID().toString();
        assertThat(open(never)).isEqualTo(new DataKeyVault.Missing(never));
    }

    @Test
    void destroyingASubjectsKeyErasesTheSessionsUnderItEvenOnceOpenedAndADestroyedKeyNeverComesBack()
            throws Exception {
        DataKeys.Created subject = DataKeys.create(ACME, DataKeys.Scope.SUBJECT, KMS.keyEncryptionKey(ACME, 1));
        DataKeys.Created session = DataKeys.create(ACME, DataKeys.Scope.SESSION, subject.key().aead());
        ring.apply(created(subject, null, 1));
        ring.apply(created(session, subject.key().keyId(), null));
        assertThat(open(session.key().keyId())).isInstanceOf(DataKeyVault.Open.class);

        ring.apply(destroyed(subject.key().keyId()));
        // The same key re-published (a KEK rotation's re-wrapping racing the destruction) does not revive it.
        ring.apply(created(subject, null, 1));

        assertThat(open(subject.key().keyId())).isEqualTo(new DataKeyVault.Erased(subject.key().keyId()));
        assertThat(open(session.key().keyId())).isEqualTo(new DataKeyVault.Erased(session.key().keyId()));
    }

    @Test
    void aKeyUnderAParentNotReadYetIsMissingUntilTheParentIsRead() throws Exception {
        DataKeys.Created subject = DataKeys.create(ACME, DataKeys.Scope.SUBJECT, KMS.keyEncryptionKey(ACME, 2));
        DataKeys.Created session = DataKeys.create(ACME, DataKeys.Scope.SESSION, subject.key().aead());
        ring.apply(created(session, subject.key().keyId(), null));

        assertThat(open(session.key().keyId())).isEqualTo(new DataKeyVault.Missing(subject.key().keyId()));
        unread.add(created(subject, null, 2));
        assertThat(open(session.key().keyId())).isInstanceOf(DataKeyVault.Open.class);
    }

    @Test
    void anotherTenantsKeyIsNeverOpenedForAnEventOfThisTenant() {
        TenantId globex = TenantId.of("globex");
        DataKeys.Created theirs = DataKeys.create(globex, DataKeys.Scope.SESSION, KMS.keyEncryptionKey(globex, 2));
        ring.apply(created(theirs, null, 2));

        assertThatThrownBy(() -> open(theirs.key().keyId())).isInstanceOf(ExecutionException.class)
                .hasMessageContaining("not tenant acme's");
    }
}
