package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hindsight.system.RunningSystem.Instance;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.system.Wire.Answer;
import dev.hindsight.testing.TestTenants;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An API key issued through ingest's admin API works on every service within seconds, a revoked one stops working on
 * every service within seconds, and a service started after a key was issued accepts it from its first request (it
 * is not ready before it has read the keys), all without a restart or a configuration change.
 */
class ApiKeysAtRunTimeIT {

    private static final Duration SECONDS = Duration.ofSeconds(10);
    private static RunningSystem system;
    private final Wire admin = new Wire(TestTenants.TENANT_A.bearer());

    @BeforeAll
    static void startSystem() {
        system = RunningSystem.shared();
    }

    private String issue(String... scopes) {
        var body = JsonNodeFactory.instance.objectNode();
        var list = body.putArray("scopes");
        List.of(scopes).forEach(list::add);
        Answer issued = admin.post(system.url(Service.INGEST) + "/v1/admin/api-keys", body, false);
        assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
        return issued.body().path("api_key").asText() + " " + issued.body().path("key_id").asText();
    }

    private static int read(Service service, String apiKey) {
        String path = service == Service.QUERY ? "/v1/sessions?limit=1" : "/v1/projects/keys-it/memories";
        return new Wire("Bearer " + apiKey).get(system.url(service) + path).status();
    }

    /** Whether {@code service} answers the key as it answers a configured key of the same tenant (not 401). */
    private static boolean accepted(Service service, String apiKey) {
        int status = read(service, apiKey);
        return status != 401 && status == read(service, TestTenants.TENANT_A.key());
    }

    @Test
    void aKeyIssuedOrRevokedOnIngestTakesEffectOnEveryServiceWithinSeconds() {
        String[] key = issue("read", "ingest").split(" ");
        long issued = System.nanoTime();
        for (Service service : List.of(Service.QUERY, Service.MEMORY)) {
            await(service + " accepting the new key").atMost(SECONDS).pollInterval(Duration.ofMillis(50))
                    .until(() -> accepted(service, key[0]));
        }
        System.out.printf("ApiKeysAtRunTimeIT: a new key worked on query and memory %.2f s after it was issued%n",
                (System.nanoTime() - issued) / 1e9);

        Answer revoked = new Wire(TestTenants.TENANT_A.bearer()).delete(system.url(Service.INGEST)
                + "/v1/admin/api-keys/" + key[1]);
        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(204);
        long revokedAt = System.nanoTime();
        for (Service service : List.of(Service.QUERY, Service.MEMORY)) {
            await(service + " refusing the revoked key").atMost(SECONDS).pollInterval(Duration.ofMillis(50))
                    .until(() -> read(service, key[0]) == 401);
        }
        System.out.printf("ApiKeysAtRunTimeIT: a revoked key was refused by query and memory %.2f s after%n",
                (System.nanoTime() - revokedAt) / 1e9);
    }

    @Test
    void aServiceStartedAfterAKeyWasIssuedAcceptsItFromItsFirstRequest() {
        String[] key = issue("read").split(" ");
        Instance memory = new Instance(Service.MEMORY, 1);
        system.kill(memory);
        system.restart(memory);
        assertThat(accepted(Service.MEMORY, key[0])).as("the first request after memory-service is ready").isTrue();
    }
}
