package dev.hindsight.query.readmodel;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The read cache against the real projection, PostgreSQL's NOTIFY and the HTTP API: an answer is kept until a change
 * to it is announced, by this replica's projection or any other's, and never served while changes cannot be heard.
 * "Another replica" is this test announcing a change on the channel the way a projection's transaction does.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class ReadCacheFlowTest {

    private static final Instant T0 = Instant.parse("2025-10-02T10:00:00Z");

    @Inject
    Pool pool;

    @Inject
    Generations generations;

    @Inject
    ChangeFeed feed;

    @TestHTTPResource("/v1/stream")
    URI stream;

    @Test
    void anAnswerIsKeptUntilAnyReplicaAnnouncesAChangeToIt() {
        String sessionId = projectedSession();
        read(sessionId);
        Response first = read(sessionId); // kept from its second read

        // Changed behind the projection's back, unannounced: the kept answer is served, byte for byte.
        quietly("UPDATE {rm}.session SET session_summary = 'changed quietly' WHERE session_id = $1", sessionId);
        Response kept = read(sessionId);
        assertThat(kept.jsonPath().getString("session_summary")).isNull();
        assertThat(kept.header("ETag")).isEqualTo(first.header("ETag"));

        try {
            // Another replica's projection announces a change to the session: the next read shows the row as it is.
            announce(new Change(TenantId.of("tenant-a"), "session", sessionId, Instant.now()));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(read(sessionId).jsonPath().getString("session_summary")).isEqualTo("changed quietly"));
            assertThat(read(sessionId).header("ETag")).isNotEqualTo(first.header("ETag"));
        } finally {
            restore(sessionId);
        }
    }

    @Test
    void theProjectionsOwnCommitsDropWhatTheyChange() {
        String sessionId = projectedSession();
        read(sessionId);
        read(sessionId); // kept from its second read

        TestEvents.session("tenant-a", sessionId, message(1, "a later answer"));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId).then().statusCode(200).body("messages", hasSize(2)));
    }

    @Test
    void ifNoneMatchIsAnswered304WhileTheSessionIsUnchanged() {
        String sessionId = projectedSession();
        String etag = read(sessionId).header("ETag");

        given().header("Authorization", TestTenants.TENANT_A.bearer()).header("If-None-Match", etag)
                .when().get("/v1/sessions/" + sessionId)
                .then().statusCode(304).header("ETag", equalTo(etag));
        given().header("Authorization", TestTenants.TENANT_A.bearer()).header("If-None-Match", "\"something-else\"")
                .when().get("/v1/sessions/" + sessionId)
                .then().statusCode(200).header("ETag", equalTo(etag));
        // Another tenant's revalidation learns nothing: the session does not exist for it.
        given().header("Authorization", TestTenants.TENANT_B.bearer()).header("If-None-Match", etag)
                .when().get("/v1/sessions/" + sessionId).then().statusCode(404);

        TestEvents.session("tenant-a", sessionId, message(1, "a later answer"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer()).header("If-None-Match", etag)
                .when().get("/v1/sessions/" + sessionId).then().statusCode(200).body("messages", hasSize(2)));
    }

    @Test
    void whileChangesCannotBeHeardNothingIsServedFromTheCache() {
        // The replica is deaf from the moment its listening connection is cut until it listens again (at least
        // 250 ms later). A read is only evidence when it happened inside that window, which a loaded machine may
        // miss; so a miss is tried again, a few times, and a read in the window must be fresh.
        for (int attempt = 1; ; attempt++) {
            String sessionId = projectedSession();
            read(sessionId);
            read(sessionId); // kept from its second read
            assertThat(feed.isListening()).isTrue();

            // The listening connection is cut; a change committed meanwhile is announced to no one.
            int listener = feed.listenerProcessId().orElseThrow();
            boolean terminated = pool.preparedQuery("SELECT pg_terminate_backend($1)").execute(Tuple.of(listener))
                    .await().atMost(Duration.ofSeconds(10)).iterator().next().getBoolean(0);
            assertThat(terminated).isTrue();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> !feed.isListening());
            String summary;
            boolean deafThroughout;
            try {
                quietly("UPDATE {rm}.session SET session_summary = 'changed while deaf' WHERE session_id = $1",
                        sessionId);
                summary = read(sessionId).jsonPath().getString("session_summary");
                deafThroughout = !feed.isListening();
            } finally {
                restore(sessionId);
            }
            if (deafThroughout) {
                assertThat(summary).as("read while deaf").isEqualTo("changed while deaf");
                break;
            }
            assertThat(attempt).as("the replica listened again before each of %d reads", attempt).isLessThan(5);
        }
        await().atMost(Duration.ofSeconds(30)).until(feed::isListening);
        given().when().get("/q/health/ready").then().statusCode(200);
    }

    /** Puts the row back as the projection wrote it: other tests rebuild the read model from the topics and compare. */
    private void restore(String sessionId) {
        quietly("UPDATE {rm}.session SET session_summary = NULL WHERE session_id = $1", sessionId);
        announce(new Change(TenantId.of("tenant-a"), "session", sessionId, Instant.now()));
    }

    @Test
    void theLiveStreamCarriesChangesAnnouncedByAnotherReplica() throws Exception {
        String theirs = "other-replica-" + UUID.randomUUID();
        HttpResponse<Stream<String>> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(stream)
                .header("Authorization", TestTenants.TENANT_A.bearer()).header("Accept", "text/event-stream")
                .build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> response.body()
                .filter(l -> l.startsWith("data:") && l.contains(theirs)).findFirst().orElseThrow());

        // Announced until heard: the stream's subscription may start a moment after the response's headers.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            announce(new Change(TenantId.of("tenant-a"), "session_summarized", theirs, Instant.now()));
            return line.isDone();
        });
        assertThat(line.get(1, TimeUnit.SECONDS)).contains("session_summarized");
        response.body().close();
    }

    private String projectedSession() {
        String sessionId = "cached-" + UUID.randomUUID();
        TestEvents.session("tenant-a", sessionId,
                SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0).build(),
                message(0, "question"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId).then().statusCode(200).body("messages", hasSize(1)));
        await().atMost(Duration.ofSeconds(30)).until(feed::isListening);
        return sessionId;
    }

    private static Response read(String sessionId) {
        return given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId).then().statusCode(200).extract().response();
    }

    private void quietly(String sql, String sessionId) {
        String statement = generations.current().await().atMost(Duration.ofSeconds(10)).sql(sql);
        int updated = pool.preparedQuery(statement).execute(Tuple.of(sessionId)).await()
                .atMost(Duration.ofSeconds(10)).rowCount();
        assertThat(updated).isEqualTo(1);
    }

    private void announce(Change change) {
        pool.preparedQuery("SELECT pg_notify($1, $2)")
                .execute(Tuple.of(ChangeFeed.CHANNEL, ChangeCodec.encode(List.of(change)).get(0)))
                .await().atMost(Duration.ofSeconds(10));
    }

    private static MessageRecorded message(int index, String content) {
        return MessageRecorded.newBuilder().setMessageIndex(index).setRole(MessageRole.USER).setContent(content)
                .setTimestamp(T0.plusSeconds(index)).build();
    }
}
