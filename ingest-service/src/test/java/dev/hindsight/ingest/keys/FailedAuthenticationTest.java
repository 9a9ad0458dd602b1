package dev.hindsight.ingest.keys;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A source that keeps presenting unknown keys is slowed down: after its burst, every attempt is a 429 for a while. */
@QuarkusTest
@TestProfile(FailedAuthenticationTest.FewFailures.class)
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class FailedAuthenticationTest {

    /** Five failures in a row, then one a minute. */
    public static class FewFailures implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hindsight.auth.failures.burst", "5", "hindsight.auth.failures.per-minute", "1");
        }
    }

    private static Response start(String bearer) {
        return given().contentType(ContentType.JSON).header("Authorization", bearer)
                .body("{\"kind\": \"chat\"}").when().post("/v1/sessions");
    }

    @Test
    void aGuesserIsHeldAndSoIsItsNextRightKeyUntilItWaited() {
        for (int i = 0; i < 5; i++) {
            assertThat(start("Bearer guess-" + i).statusCode()).as("failure %d", i + 1).isEqualTo(401);
        }
        Response held = start("Bearer guess-6");
        assertThat(held.statusCode()).isEqualTo(429);
        assertThat(held.contentType()).startsWith("application/problem+json");
        assertThat(Long.parseLong(held.header("Retry-After"))).isBetween(1L, 60L);
        // Every attempt from this source, even with a right key, until it has waited.
        assertThat(start(TestTenants.TENANT_A.bearer()).statusCode()).isEqualTo(429);
    }
}
