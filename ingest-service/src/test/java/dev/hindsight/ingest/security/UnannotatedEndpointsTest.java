package dev.hindsight.ingest.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * "Unannotated endpoints are denied" (docs/guarantees.md): an endpoint without a security annotation answers nobody,
 * not even a key with every scope. Called with a plain HTTP client, since the endpoint is in no published document.
 */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class UnannotatedEndpointsTest {

    @TestHTTPResource("/v1/unannotated-probe")
    URI probe;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void anEndpointWithoutASecurityAnnotationIsDeniedToEveryKey() throws Exception {
        for (TestTenants who : TestTenants.values()) {
            HttpResponse<String> read = http.send(HttpRequest.newBuilder(probe).header("Authorization", who.bearer())
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> write = http.send(HttpRequest.newBuilder(probe).header("Authorization", who.bearer())
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(read.statusCode()).as("GET with %s: %s", who, read.body()).isEqualTo(403);
            assertThat(write.statusCode()).as("POST with %s: %s", who, write.body()).isEqualTo(403);
        }
        HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(probe).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
    }
}
