package dev.hindsight.query.receipt;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class ReceiptResourceTest {

    @Test
    void aReceiptTurnsProjectedOnceTheReadModelAppliedTheEventAndOnlyForItsTenant() {
        UUID eventId = UUID.randomUUID();
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/receipts/" + eventId)
                .then().statusCode(200).body("status", equalTo("pending"));

        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TestTopics.write("hindsight.reasoning.v1", "s-receipt", ReasoningEvent.newBuilder()
                .setHeader(EventHeader.newBuilder().setEventId(eventId).setTenantId("tenant-a").setOccurredAt(now)
                        .setRecordedAt(now).setProducer(ProducerIdentity.newBuilder().setPrincipal("t").build())
                        .build())
                .setSessionId("s-receipt-" + eventId)
                .setPayload(MessageRecorded.newBuilder().setMessageIndex(0).setRole(MessageRole.USER)
                        .setContent("hi").setTimestamp(now).build())
                .build());

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/receipts/" + eventId)
                .then().statusCode(200)
                .body("status", equalTo("projected"))
                .body("projections[0].projection", equalTo("query.reasoning")));
        given().header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/v1/receipts/" + eventId)
                .then().statusCode(200).body("status", equalTo("pending"));
    }

    @Test
    void anEventIdMustBeAUuid() {
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/receipts/not-a-uuid")
                .then().statusCode(404);
    }
}
