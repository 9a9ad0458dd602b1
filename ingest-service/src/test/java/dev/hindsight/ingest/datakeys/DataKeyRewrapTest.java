package dev.hindsight.ingest.datakeys;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.datakeys.DataKeyCreated;
import dev.hindsight.events.datakeys.DataKeyDestroyed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.platform.crypto.DataKeyRing;
import dev.hindsight.platform.crypto.DataKeyVault;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.LocalKms;
import dev.hindsight.platform.crypto.Sealing;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.testing.TestCrypto;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The second step of a KEK rotation (ADR 0027): with master key version 2 current, the tenant's data keys wrapped under
 * version 1 are re-wrapped under version 2 with the same id and material, so that what they sealed opens with version
 * 1 gone; a destroyed key stays destroyed, including one whose stale re-wrapping landed after its destruction; another
 * tenant's keys are left alone.
 */
@QuarkusTest
@TestProfile(DataKeyRewrapTest.Profile.class)
class DataKeyRewrapTest {

    private static final TenantId TENANT_A = TenantId.of("tenant-a");
    private static final TenantId TENANT_B = TenantId.of("tenant-b");

    /** ingest as during a rotation: both versions, the new one current. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return TestCrypto.rotatedConfig();
        }
    }

    @Test
    void keysUnderTheOldVersionAreReWrappedAndOpenWithoutItWhileDestroyedOnesStayDestroyed() {
        // Keys made before the rotation, under version 1 only.
        DataKeyIssuer before = new DataKeyIssuer(TestCrypto.kms(), "test", records -> {
            List<Map.Entry<String, DataKeyEvent>> written = new ArrayList<>();
            records.forEach(r -> written.add(Map.entry(r.key(), r.value())));
            TestTopics.writeAll(HindsightTopic.DATA_KEYS.defaultName(), written);
            return Uni.createFrom().voidItem();
        });
        DataKeys.DataKey kept = issue(before, TENANT_A);
        DataKeys.DataKey destroyed = issue(before, TENANT_A);
        DataKeys.DataKey raced = issue(before, TENANT_A);
        DataKeys.DataKey otherTenant = issue(before, TENANT_B);
        byte[] sealed = Sealing.seal(kept, bytes("what a person wrote"), TENANT_A, "session-1", new UUID(0, 1));
        before.destroy(TENANT_A, destroyed.keyId(), ErasureReason.SESSION_ERASED).await().indefinitely();
        // A re-wrapping that read the key before it was destroyed and landed after: the key's latest record.
        before.destroy(TENANT_A, raced.keyId(), ErasureReason.SESSION_ERASED).await().indefinitely();
        assertThat(latest(raced.keyId()).getPayload()).isInstanceOf(DataKeyDestroyed.class);
        TestTopics.write(HindsightTopic.DATA_KEYS.defaultName(), raced.keyId(), find(raced.keyId(), true));
        assertThat(latest(raced.keyId()).getPayload()).isInstanceOf(DataKeyCreated.class);

        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().post("/v1/admin/data-keys/rewrap")
                .then().statusCode(200)
                .body("rewrapped", equalTo(1)).body("destroyed_again", equalTo(1)).body("kek_version", equalTo(2));

        DataKeyVault withoutVersion1 = vault(new LocalKms(Map.of(2, TestCrypto.MASTER_KEY_2), 2));
        DataKeyVault.Opening opened = withoutVersion1.open(TENANT_A, kept.keyId()).toCompletableFuture().join();
        assertThat(opened).as("re-wrapped: opens with version 1 gone").isInstanceOf(DataKeyVault.Open.class);
        assertThat(new String(open((DataKeyVault.Open) opened, sealed), StandardCharsets.UTF_8))
                .isEqualTo("what a person wrote");
        assertThat(((DataKeyCreated) latest(kept.keyId()).getPayload()).getKekVersion()).isEqualTo(2);
        for (DataKeys.DataKey gone : List.of(destroyed, raced)) {
            assertThat(withoutVersion1.open(TENANT_A, gone.keyId()).toCompletableFuture().join())
                    .as("still destroyed").isInstanceOf(DataKeyVault.Erased.class);
            assertThat(latest(gone.keyId()).getPayload()).as("the key's latest record, what compaction keeps")
                    .isInstanceOf(DataKeyDestroyed.class);
        }
        assertThat(((DataKeyCreated) latest(otherTenant.keyId()).getPayload()).getKekVersion())
                .as("another tenant's key, left alone").isEqualTo(1);
    }

    private static DataKeys.DataKey issue(DataKeyIssuer issuer, TenantId tenant) {
        return issuer.issue(tenant, DataKeys.Scope.SESSION, "session-" + UUID.randomUUID(), null).await()
                .indefinitely();
    }

    private static DataKeyVault vault(LocalKms kms) {
        DataKeyRing ring = new DataKeyRing();
        TestTopics.readAll(TestKafka.bootstrapServers(), HindsightTopic.DATA_KEYS.defaultName(), DataKeyEvent.class)
                .forEach(ring::apply);
        return new DataKeyVault(ring, kms, () -> CompletableFuture.completedFuture(null));
    }

    private static byte[] open(DataKeyVault.Open opened, byte[] sealed) {
        try {
            return Sealing.open(opened.key(), sealed, TENANT_A, "session-1", new UUID(0, 1));
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError("does not open under the re-wrapped key", e);
        }
    }

    /** The key's latest record on the topic: what compaction keeps of it. */
    private static DataKeyEvent latest(String keyId) {
        List<DataKeyEvent> all = TestTopics.readAll(TestKafka.bootstrapServers(),
                HindsightTopic.DATA_KEYS.defaultName(), DataKeyEvent.class);
        DataKeyEvent last = null;
        for (DataKeyEvent event : all) {
            if (event.getKeyId().equals(keyId)) {
                last = event;
            }
        }
        return last;
    }

    /** The key's first wrapping. */
    private static DataKeyEvent find(String keyId, boolean created) {
        return TestTopics.readAll(TestKafka.bootstrapServers(), HindsightTopic.DATA_KEYS.defaultName(),
                        DataKeyEvent.class).stream()
                .filter(e -> e.getKeyId().equals(keyId) && (e.getPayload() instanceof DataKeyCreated) == created)
                .findFirst().orElseThrow();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
