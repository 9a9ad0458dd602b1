package dev.hindsight.platform.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.keys.ApiKeyIssued;
import dev.hindsight.events.keys.ApiKeyRevoked;
import dev.hindsight.events.keys.KeyEvent;
import dev.hindsight.platform.Hashing;
import dev.hindsight.platform.tenant.TenantId;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Given key events, then what the ring lets through. */
class KeyRingTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private final KeyRing ring = new KeyRing();

    private static KeyEvent event(String tenant, String keyId, Instant at, Object payload) {
        return KeyEvent.newBuilder().setKeyId(keyId).setPayload(payload)
                .setHeader(EventHeader.newBuilder().setEventId(UUID.randomUUID()).setTenantId(tenant)
                        .setOccurredAt(at).setRecordedAt(at)
                        .setProducer(ProducerIdentity.newBuilder().setPrincipal("admin").build()).build())
                .build();
    }

    private static KeyEvent issued(String tenant, String keyId, String secret, Instant at, Instant expires) {
        return event(tenant, keyId, at, ApiKeyIssued.newBuilder().setSha256(Hashing.sha256Hex(secret))
                .setScopes(List.of("read", "ingest")).setName("ci").setExpiresAt(expires).build());
    }

    private static KeyEvent revoked(String tenant, String keyId, Instant at, Instant effective) {
        return event(tenant, keyId, at, ApiKeyRevoked.newBuilder().setEffectiveAt(effective).setReason("revoked")
                .build());
    }

    @Test
    void anIssuedKeyGrantsItsTenantAndScopesFromItsIssue() {
        ring.apply(issued("acme", "key_1", "secret-1", T0, null));
        ApiKeys.Grant grant = ring.find(Hashing.sha256Hex("secret-1"), T0.plusSeconds(1)).orElseThrow();
        assertThat(grant.keyId()).isEqualTo("key_1");
        assertThat(grant.tenant()).isEqualTo(TenantId.of("acme"));
        assertThat(grant.scopes()).containsExactlyInAnyOrder("read", "ingest");
        assertThat(ring.find(Hashing.sha256Hex("secret-2"), T0)).isEmpty();
    }

    @Test
    void aKeyStopsAtItsExpiry() {
        ring.apply(issued("acme", "key_1", "s", T0, T0.plusSeconds(60)));
        assertThat(ring.find(Hashing.sha256Hex("s"), T0.plusSeconds(59))).isPresent();
        assertThat(ring.find(Hashing.sha256Hex("s"), T0.plusSeconds(60))).isEmpty();
    }

    @Test
    void aRevocationTakesEffectWhenItSays() {
        ring.apply(issued("acme", "key_1", "s", T0, null));
        ring.apply(revoked("acme", "key_1", T0.plusSeconds(10), T0.plusSeconds(3_600)));
        assertThat(ring.find(Hashing.sha256Hex("s"), T0.plusSeconds(3_599))).isPresent();
        assertThat(ring.find(Hashing.sha256Hex("s"), T0.plusSeconds(3_600))).isEmpty();
        assertThat(ring.get("key_1").orElseThrow().revokedAt()).isEqualTo(T0.plusSeconds(3_600));
    }

    @Test
    void theEarliestRevocationWinsWhateverTheOrderTheyArriveIn() {
        ring.apply(issued("acme", "key_1", "s", T0, null));
        ring.apply(revoked("acme", "key_1", T0.plusSeconds(1), T0.plusSeconds(3_600)));
        ring.apply(revoked("acme", "key_1", T0.plusSeconds(2), T0.plusSeconds(2)));
        ring.apply(revoked("acme", "key_1", T0.plusSeconds(3), T0.plusSeconds(7_200)));
        assertThat(ring.get("key_1").orElseThrow().revokedAt()).isEqualTo(T0.plusSeconds(2));
        assertThat(ring.find(Hashing.sha256Hex("s"), T0.plusSeconds(3))).isEmpty();
    }

    @Test
    void applyingTheTopicTwiceChangesNothing() {
        List<KeyEvent> topic = List.of(issued("acme", "key_1", "a", T0, null), issued("beta", "key_2", "b", T0, null),
                revoked("acme", "key_1", T0.plusSeconds(5), T0.plusSeconds(5)));
        topic.forEach(ring::apply);
        List<KeyRing.Key> once = List.copyOf(ring.ofTenant(TenantId.of("acme")));
        topic.forEach(ring::apply);
        assertThat(ring.ofTenant(TenantId.of("acme"))).isEqualTo(once);
        assertThat(ring.ofTenant(TenantId.of("beta"))).hasSize(1);
    }

    @Test
    void aReissuedIdDoesNotReplaceTheFirstIssue() {
        ring.apply(issued("acme", "key_1", "first", T0, null));
        ring.apply(issued("acme", "key_1", "second", T0.plusSeconds(1), null));
        assertThat(ring.find(Hashing.sha256Hex("first"), T0.plusSeconds(2))).isPresent();
        assertThat(ring.find(Hashing.sha256Hex("second"), T0.plusSeconds(2))).isEmpty();
    }

    @Test
    void aRevocationOfAnUnknownKeyIsIgnored() {
        ring.apply(revoked("acme", "key_9", T0, T0));
        assertThat(ring.get("key_9")).isEmpty();
    }

    @Test
    void aTenantSeesOnlyItsOwnKeysNewestFirst() {
        ring.apply(issued("acme", "key_1", "a", T0, null));
        ring.apply(issued("acme", "key_2", "b", T0.plusSeconds(5), null));
        ring.apply(issued("beta", "key_3", "c", T0.plusSeconds(9), null));
        assertThat(ring.ofTenant(TenantId.of("acme"))).extracting(KeyRing.Key::keyId).containsExactly("key_2", "key_1");
        assertThat(ring.ofTenant(TenantId.of("gamma"))).isEmpty();
    }
}
