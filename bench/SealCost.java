import com.google.crypto.tink.Aead;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.LocalKms;
import dev.hindsight.platform.crypto.Sealing;
import dev.hindsight.platform.tenant.TenantId;
import java.util.Map;
import java.util.UUID;

/**
 * What sealing costs one ingest replica's CPU, in µs per call: making a data key (a Tink keyset, wrapped under the
 * tenant's KEK) and sealing one event's bytes (AES-256-GCM with its associated data). Not part of CI.
 *   mvn -q -pl platform install -DskipTests
 *   mvn -q -pl platform dependency:build-classpath -Dmdep.outputFile=/tmp/platform.cp
 *   java -cp platform/target/classes:$(cat /tmp/platform.cp) bench/SealCost.java
 */
public class SealCost {

    public static void main(String[] args) throws Exception {
        TenantId tenant = TenantId.of("acme");
        LocalKms kms = new LocalKms(Map.of(1, "AwoRGB8mLTQ7QklQV15lbHN6gYiPlp2kq7K5wMfO1dw="), 1);
        Aead kek = kms.keyEncryptionKey(tenant, 1);
        DataKeys.DataKey key = DataKeys.create(tenant, DataKeys.Scope.SESSION, kek).key();
        byte[] event = new byte[600];
        UUID eventId = UUID.randomUUID();
        long sink = 0;
        for (int round = 0; round < 5; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < 50_000; i++) {
                sink += DataKeys.create(tenant, DataKeys.Scope.SESSION, kek).wrapped().wrapped().length;
            }
            double make = (System.nanoTime() - start) / 50_000.0 / 1000;
            start = System.nanoTime();
            for (int i = 0; i < 200_000; i++) {
                sink += Sealing.seal(key, event, tenant, "session-1", eventId).length;
            }
            double seal = (System.nanoTime() - start) / 200_000.0 / 1000;
            System.out.printf("round %d: make a data key %.1f µs, seal %d bytes %.2f µs (%d)%n", round, make,
                    event.length, seal, sink % 10);
        }
    }
}
