package dev.hindsight.memory.api;

import static dev.hindsight.testing.TestTenants.TENANT_A;
import static dev.hindsight.testing.TestTenants.TENANT_B;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.HindsightTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A small project among many other vectors near the query still gets its whole answer (design.md § Semantic search:
 * small projects are searched exactly). The HNSW index holds every tenant's vectors; a walk filtered to one project
 * gives up after {@code hnsw.max_scan_tuples} entries. Here the walk is made short (10 candidates, give up after 40) so
 * that another tenant's 120 memories about the question crowd out the small project's four, as 20,000 would in
 * production.
 */
@QuarkusTest
@TestProfile(CrowdedIndexTest.ShortIndexWalk.class)
@QuarkusTestResource(HindsightTestResource.class)
class CrowdedIndexTest {

    public static class ShortIndexWalk implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.datasource.reactive.additional-properties.options",
                    "-c hnsw.iterative_scan=relaxed_order -c hnsw.ef_search=10 -c hnsw.max_scan_tuples=40");
        }
    }

    @Test
    void aSmallProjectAmongManyNearerVectorsGetsItsWholeAnswer() {
        String crowd = Memories.project();
        String[] verbs = {"Retry", "Back off on", "Add jitter to retries of", "Cap the retries of", "Time out"};
        String[] calls = {"flaky HTTP calls", "timeouts from the payments API", "failed webhook deliveries",
            "calls to the rate-limited search API", "requests to the slow inventory service", "503s from the gateway",
            "dropped connections to the broker", "calls to the geocoding service"};
        int n = 0;
        for (String verb : verbs) {
            for (String call : calls) {
                for (int attempts = 3; attempts <= 5; attempts++) {
                    Memories.record(TENANT_B, crowd, verb + " " + call + " #" + n++, verb + " " + call
                            + " with exponential backoff, at most " + attempts + " attempts.", "success", List.of());
                }
            }
        }
        String small = Memories.project();
        List<String> ids = List.of(
                Memories.record(TENANT_A, small, "Retry idempotent requests only",
                        "Retrying a POST without an idempotency key charged customers twice.", "failure", List.of())
                        .getString("id"),
                Memories.record(TENANT_A, small, "Respect Retry-After from the payments API",
                        "The payments API sends Retry-After with its 429s; waiting that long stopped the bans.",
                        "success", List.of()).getString("id"),
                Memories.record(TENANT_A, small, "Give up after the caller's deadline",
                        "Retries past the caller's deadline only added load; pass the remaining time down.", "success",
                        List.of()).getString("id"),
                Memories.record(TENANT_A, small, "Pin the JDK in CI", "Builds broke on a new JDK.", "success",
                        List.of()).getString("id"));

        List<String> found = Memories.search(TENANT_A, small, "how should we retry failed HTTP calls", 10, null)
                .getList("memories.id", String.class);

        assertThat(found).containsExactlyInAnyOrderElementsOf(ids);
    }
}
