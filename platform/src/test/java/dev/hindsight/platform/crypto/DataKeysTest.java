package dev.hindsight.platform.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.Aead;
import dev.hindsight.platform.crypto.DataKeys.DataKey;
import dev.hindsight.platform.crypto.DataKeys.Scope;
import dev.hindsight.platform.crypto.DataKeys.Wrapped;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DataKeysTest {

    private static final TenantId ACME = TenantId.of("acme");
    private static final LocalKms KMS = new LocalKms(Map.of(1, LocalKmsTest.MASTER_1, 2, LocalKmsTest.MASTER_2), 1);
    private static final byte[] TEXT = "Anna Berg asked about her invoice".getBytes(StandardCharsets.UTF_8);
    private static final UUID EVENT = UUID.fromString("00000000-0000-0000-0000-000000000001");

    @Test
    void aSessionKeyUnderASubjectKeyOpensWhatItSealedOnlyThroughItsWholeChain() throws GeneralSecurityException {
        Aead kek = KMS.keyEncryptionKey(ACME, 1);
        DataKeys.Created subject = DataKeys.create(ACME, Scope.SUBJECT, kek);
        DataKeys.Created session = DataKeys.create(ACME, Scope.SESSION, subject.key().aead());
        byte[] sealed = Sealing.seal(session.key(), TEXT, ACME, "session-1", EVENT);

        // A reader holding only the published wrappings and the KMS.
        DataKey subjectKey = DataKeys.unwrap(subject.wrapped(), KMS.keyEncryptionKey(ACME, 1));
        DataKey sessionKey = DataKeys.unwrap(session.wrapped(), subjectKey.aead());

        assertThat(Sealing.open(sessionKey, sealed, ACME, "session-1", EVENT)).isEqualTo(TEXT);
        assertThat(sessionKey.keyId()).isEqualTo(session.key().keyId()).isNotEqualTo(subject.key().keyId());
        assertThatThrownBy(() -> DataKeys.unwrap(session.wrapped(), kek))
                .as("a session key under a subject's does not unwrap with the KEK alone")
                .isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void aWrappedKeyPassedOffAsAnotherKeyTenantOrScopeOrChangedDoesNotUnwrap() {
        Aead kek = KMS.keyEncryptionKey(ACME, 1);
        Wrapped wrapped = DataKeys.create(ACME, Scope.SESSION, kek).wrapped();
        byte[] changed = wrapped.wrapped().clone();
        changed[changed.length - 1] ^= 1;

        for (Wrapped forged : new Wrapped[] {
                new Wrapped(UUID.randomUUID().toString(), ACME, Scope.SESSION, wrapped.wrapped()),
                new Wrapped(wrapped.keyId(), TenantId.of("globex"), Scope.SESSION, wrapped.wrapped()),
                new Wrapped(wrapped.keyId(), ACME, Scope.SUBJECT, wrapped.wrapped()),
                new Wrapped(wrapped.keyId(), ACME, Scope.SESSION, changed)}) {
            assertThatThrownBy(() -> DataKeys.unwrap(forged, kek)).isInstanceOf(GeneralSecurityException.class);
        }
    }

    @Test
    void aKeyRewrappedUnderTheNextKekVersionOpensWhatItSealedBefore() throws GeneralSecurityException {
        DataKeys.Created created = DataKeys.create(ACME, Scope.MEMORY, KMS.keyEncryptionKey(ACME, 1));
        byte[] sealed = Sealing.seal(created.key(), TEXT, ACME, "project-x", EVENT);

        Wrapped rewrapped = DataKeys.rewrap(created.wrapped(), KMS.keyEncryptionKey(ACME, 1),
                KMS.keyEncryptionKey(ACME, 2));

        assertThat(rewrapped.keyId()).isEqualTo(created.wrapped().keyId());
        assertThat(rewrapped.wrapped()).isNotEqualTo(created.wrapped().wrapped());
        DataKey key = DataKeys.unwrap(rewrapped, KMS.keyEncryptionKey(ACME, 2));
        assertThat(Sealing.open(key, sealed, ACME, "project-x", EVENT)).isEqualTo(TEXT);
        assertThatThrownBy(() -> DataKeys.unwrap(rewrapped, KMS.keyEncryptionKey(ACME, 1)))
                .isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void framingTellsApartPartsThatConcatenateAlike() {
        assertThat(DataKeys.framed("ab", "c")).isNotEqualTo(DataKeys.framed("a", "bc"));
        assertThat(DataKeys.framed("a", "")).isNotEqualTo(DataKeys.framed("a"));
    }
}
