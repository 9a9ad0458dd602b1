package dev.hindsight.ingest.quota;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A tenant over its quota is held with 429 and Retry-After while another tenant's requests go through, against the
 * real broker: in the test profile tenant-flood may have 500 events a second and tenant-flood-bytes 200 KB a second,
 * each with a 3 s burst.
 */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class TenantQuotaTest {

    private static String batch(String session, int from, int messages) {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < messages; i++) {
            items.append(i == 0 ? "" : ",").append("{\"message_index\": ").append(from + i)
                    .append(", \"role\": \"user\", \"content\": \"flood ").append(from + i).append("\"}");
        }
        return "{\"items\": [{\"type\": \"messages\", \"session_id\": \"" + session + "\", \"body\": {\"messages\": ["
                + items + "]}}]}";
    }

    private static Response post(TestTenants who, String body) {
        return given().urlEncodingEnabled(false).contentType(ContentType.JSON).header("Authorization", who.bearer())
                .body(body).when().post("/v1/events:batch");
    }

    @Test
    void aFloodingTenantIsHeldWhileAnotherTenantsRequestsAreAccepted() throws Exception {
        String flood = "flood-" + UUID.randomUUID();
        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicInteger acceptedEvents = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicLong smallestRetryAfter = new AtomicLong(Long.MAX_VALUE);
        AtomicInteger next = new AtomicInteger();
        ExecutorService floodThreads = Executors.newFixedThreadPool(4);
        List<Future<?>> floods = new ArrayList<>();
        long began = System.nanoTime();
        for (int t = 0; t < 4; t++) {
            floods.add(floodThreads.submit(() -> {
                while (flooding.get()) {
                    Response answer = post(TestTenants.FLOOD, batch(flood, next.getAndAdd(100), 100));
                    if (answer.statusCode() == 429) {
                        refused.incrementAndGet();
                        assertThat(answer.contentType()).startsWith("application/problem+json");
                        smallestRetryAfter.accumulateAndGet(Long.parseLong(answer.header("Retry-After")), Math::min);
                    } else {
                        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(200);
                        acceptedEvents.addAndGet(answer.jsonPath().getInt("accepted") * 100);
                    }
                }
            }));
        }
        // Meanwhile another tenant sends as usual: every one of its requests is accepted.
        String calm = "calm-" + UUID.randomUUID();
        for (int i = 0; i < 40; i++) {
            Response answer = post(TestTenants.TENANT_B, batch(calm, i * 5, 5));
            assertThat(answer.statusCode()).as("tenant B while tenant-flood floods: " + answer.asString())
                    .isEqualTo(200);
            assertThat(answer.jsonPath().getInt("accepted")).isEqualTo(1);
        }
        flooding.set(false);
        for (Future<?> f : floods) {
            f.get(60, TimeUnit.SECONDS);
        }
        floodThreads.shutdown();
        double seconds = (System.nanoTime() - began) / 1e9;

        assertThat(refused.get()).as("requests refused with 429").isPositive();
        assertThat(smallestRetryAfter.get()).as("Retry-After").isGreaterThanOrEqualTo(1);
        // The rate, the burst, and the requests admitted while the bucket was not yet in debt (one per thread).
        assertThat(acceptedEvents.get()).as("events accepted in %.1f s", seconds)
                .isLessThanOrEqualTo((int) (500 * seconds + 500 * 3 + 4 * 100));
    }

    @Test
    void aBodyLargerThanTheBytesLeftIsRefusedBeforeItIsRead() {
        String session = "bytes-" + UUID.randomUUID();
        // 200 KB a second with a 3 s burst: 600 KB. Bodies of about 70 KB: the ninth or so is refused.
        String content = "x".repeat(700);
        int accepted = 0;
        Response refusal = null;
        for (int i = 0; i < 30 && refusal == null; i++) {
            StringBuilder messages = new StringBuilder();
            for (int m = 0; m < 100; m++) {
                messages.append(m == 0 ? "" : ",").append("{\"message_index\": ").append(i * 100 + m)
                        .append(", \"role\": \"user\", \"content\": \"").append(content).append("\"}");
            }
            Response answer = given().contentType(ContentType.JSON)
                    .header("Authorization", TestTenants.FLOOD_BYTES.bearer())
                    .body("{\"messages\": [" + messages + "]}")
                    .when().post("/v1/sessions/" + session + "/messages");
            if (answer.statusCode() == 429) {
                refusal = answer;
            } else {
                assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(202);
                accepted++;
            }
        }
        assertThat(refusal).as("a refusal once about 600 KB were sent").isNotNull();
        assertThat(accepted).isBetween(5, 12);
        assertThat(refusal.header("Retry-After")).isNotNull();
        assertThat(refusal.jsonPath().getInt("status")).isEqualTo(429);
    }
}
