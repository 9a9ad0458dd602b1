package dev.hindsight.query.erasure;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.erasures.ErasureApplied;
import dev.hindsight.events.erasures.ErasureEvent;
import dev.hindsight.events.erasures.ErasureRequested;
import dev.hindsight.events.erasures.ErasureSelector;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An erasure read from the log (ADR 0028) deletes the erased session from the read model, records itself without
 * content, says on the log that query-service applied it, and from then on the projection writes nothing of the
 * session: not even an event in clear, as events written before sealing existed are (a rebuild's backfill goes
 * through the same check). Another session, and the same id in another tenant, are untouched.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class ErasedSessionsTest {

    private static final Instant T0 = Instant.parse("2025-10-02T10:00:00Z");

    @Inject
    Pool pool;

    @Test
    void anErasedSessionIsDeletedAndNothingOfItIsProjectedAgain() {
        String erased = "erased-" + UUID.randomUUID();
        String kept = "kept-" + UUID.randomUUID();
        SessionStarted chat = SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0).build();
        for (String session : List.of(erased, kept)) {
            TestEvents.session("tenant-a", session, chat, TestEvents.message(0, "question of " + session, T0));
        }
        TestEvents.session("tenant-b", erased, chat, TestEvents.message(0, "tenant b's own", T0));
        for (String session : List.of(erased, kept)) {
            await("session " + session).atMost(Duration.ofSeconds(30)).untilAsserted(() -> session(session,
                    TestTenants.TENANT_A).then().statusCode(200).body("messages", hasSize(1)));
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> session(erased, TestTenants.TENANT_B).then()
                .statusCode(200));

        String erasureId = UUID.randomUUID().toString();
        TestTopics.write(HindsightTopic.ERASURES.defaultName(), erasureId, ErasureEvent.newBuilder()
                .setErasureId(erasureId).setHeader(header("tenant-a"))
                .setPayload(ErasureRequested.newBuilder().setSelector(ErasureSelector.SESSIONS)
                        .setSessionIds(List.of(erased)).setMessageIds(List.of()).setTraceIds(List.of())
                        .setDestroyedKeys(List.of()).build()).build());

        await("the erasure applied").atMost(Duration.ofSeconds(30)).untilAsserted(() -> session(erased,
                TestTenants.TENANT_A).then().statusCode(404));
        Row recorded = pool.preparedQuery("SELECT erased FROM erasure WHERE erasure_id = $1 AND tenant_id = $2")
                .execute(Tuple.of(erasureId, "tenant-a")).await().indefinitely().iterator().next();
        assertThat(recorded.getJsonObject("erased").getLong("session")).isEqualTo(1L);
        assertThat(recorded.getJsonObject("erased").getLong("message")).isEqualTo(1L);
        ErasureApplied applied = await("query-service says it applied it").atMost(Duration.ofSeconds(30))
                .until(() -> TestTopics.readAll(TestKafka.bootstrapServers(), HindsightTopic.ERASURES.defaultName(),
                                ErasureEvent.class).stream()
                        .filter(e -> e.getErasureId().equals(erasureId))
                        .map(ErasureEvent::getPayload).filter(ErasureApplied.class::isInstance)
                        .map(ErasureApplied.class::cast).findFirst(), java.util.Optional::isPresent).orElseThrow();
        assertThat(applied.getService()).isEqualTo("query-service");

        // Events of the erased session arriving later, in clear: none is written; the other session's are.
        TestEvents.session("tenant-a", erased, chat, TestEvents.message(1, "a late message", T0));
        TestEvents.session("tenant-a", kept, TestEvents.message(1, "the other goes on", T0));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> session(kept, TestTenants.TENANT_A).then()
                .statusCode(200).body("messages", hasSize(2)));
        await("everything on the topic read").atMost(Duration.ofSeconds(30))
                .until(() -> TestTopics.lag("hindsight-query", List.of(TestEvents.REASONING)) == 0);
        session(erased, TestTenants.TENANT_A).then().statusCode(404);
        long rows = pool.preparedQuery("SELECT (SELECT count(*) FROM rm_" + current() + ".session "
                + "WHERE tenant_id = $1 AND session_id = $2) + (SELECT count(*) FROM rm_" + current()
                + ".message WHERE tenant_id = $1 AND session_id = $2)")
                .execute(Tuple.of("tenant-a", erased)).await().indefinitely().iterator().next().getLong(0);
        assertThat(rows).as("rows of the erased session").isZero();
        session(erased, TestTenants.TENANT_B).then().statusCode(200).body("messages", hasSize(1));
    }

    private int current() {
        return pool.query("SELECT generation FROM read_model_generation WHERE state = 'current'").execute().await()
                .indefinitely().iterator().next().getInteger(0);
    }

    private static io.restassured.response.Response session(String id, TestTenants persona) {
        return given().header("Authorization", persona.bearer()).when().get("/v1/sessions/" + id);
    }

    private static EventHeader header(String tenant) {
        Instant now = Instant.now();
        return EventHeader.newBuilder().setEventId(UUID.randomUUID()).setTenantId(tenant).setOccurredAt(now)
                .setRecordedAt(now).setProducer(ProducerIdentity.newBuilder().setPrincipal("test").build()).build();
    }
}
