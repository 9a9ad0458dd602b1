package dev.hindsight.ingest.audit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.decisions.DecisionSetRecorded;
import dev.hindsight.events.signals.BehaviorSignalRecorded;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.events.signals.SignalType;
import dev.hindsight.events.signals.UserFollowupOverride;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestCrypto;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.platform.Hashing;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class AuditIngestResourceTest {

    @Test
    void seedDecisionSetIsPublishedKeyedByMessageIdWithShadowsInOrder() {
        String messageId = "msg-" + UUID.randomUUID();
        String body = AuditIngestResource.DECISION_SET_EXAMPLE.replace("msg-456", messageId)
                .replace("\"question_hash\": 1234567890,", "");
        String eventId = given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body(body)
                .when().post("/v1/decision-sets")
                .then().statusCode(202)
                .body("message_id", equalTo(messageId))
                .body("decision_set_id", equalTo("ds-abc123"))
                .body("receipts[0].topic", equalTo("hindsight.decisions.v1"))
                .extract().path("receipts[0].event_id");

        List<ConsumerRecord<String, DecisionEvent>> published = TestTopics.read("hindsight.decisions.v1",
                DecisionEvent.class, e -> e.getHeader().getEventId().toString().equals(eventId), 1,
                Duration.ofSeconds(20));

        assertThat(published).hasSize(1);
        assertThat(published.get(0).key()).isEqualTo(messageId);
        DecisionSetRecorded set = (DecisionSetRecorded) published.get(0).value().getPayload();
        assertThat(set.getActiveDecision().getDecisionAction()).isEqualTo("REQUIRE_COMM");
        assertThat(set.getActiveDecision().getVersion()).isEqualTo("v1.0.0");
        assertThat(set.getShadowDecisions()).extracting(d -> d.getVersion())
                .containsExactly("v2.0-alpha", "v2.0-beta");
        // Keyed by the tenant's hashing key: the same question hashes alike for the tenant, another tenant's differs,
        // and neither is the plain SHA-256 anyone could compute from a guess.
        String question = "What is the latest Python version?";
        assertThat(set.getQuestionHash()).isEqualTo(AuditEventMapper.questionHash(TestCrypto.kms(),
                TenantId.of("tenant-a"), "  what is the LATEST python   version? "))
                .isNotEqualTo(AuditEventMapper.questionHash(TestCrypto.kms(), TenantId.of("tenant-b"), question))
                .isNotEqualTo(Long.parseUnsignedLong(Hashing.sha256Hex(question.toLowerCase(java.util.Locale.ROOT))
                        .substring(0, 16), 16) & Long.MAX_VALUE);
        assertThat(set.getContextSnapshot()).contains("\"execution_phase\":\"planning\"");
        assertThat(set.getTimestamp()).isEqualTo(Instant.parse("2025-01-31T10:30:00Z"));
    }

    @Test
    void theBarePayloadIsAcceptedToo() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"message_id": "m-1", "session_id": "s-1", "question_text": "q", "active_version": "v1",
                         "active_decision": {"info_need_type": "OPINION", "decision_action": "DIRECT_ANSWER"}}""")
                .when().post("/v1/decision-sets")
                .then().statusCode(202).body("decision_set_id", org.hamcrest.Matchers.notNullValue());
    }

    @Test
    void decisionSetErrorsNameEveryFieldUnderPayload() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"event_type": "USER_BEHAVIOR_SIGNAL", "payload": {"session_id": "s",
                          "active_decision": {"decision_action": "X", "confidence_level": "very"},
                          "shadow_versions": ["v2"], "shadow_decisions": []}}""")
                .when().post("/v1/decision-sets")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItem("event_type"));
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"event_type": "DECISION_SET_CREATED", "payload": {"session_id": "s",
                          "active_decision": {"decision_action": "X", "confidence_level": "very"}}}""")
                .when().post("/v1/decision-sets")
                .then().statusCode(400)
                .body("errors.field", hasItem("payload.message_id"))
                .body("errors.field", hasItem("payload.question_text"))
                .body("errors.field", hasItem("payload.active_version"))
                .body("errors.field", hasItem("payload.active_decision.info_need_type"))
                .body("errors.field", hasItem("payload.active_decision.confidence_level"));
    }

    @Test
    void shadowDecisionsNeedOneVersionEach() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"message_id": "m", "session_id": "s", "question_text": "q", "active_version": "v1",
                         "shadow_versions": ["v2"],
                         "active_decision": {"info_need_type": "A", "decision_action": "B"},
                         "shadow_decisions": [{"info_need_type": "A", "decision_action": "B"},
                                              {"info_need_type": "A", "decision_action": "C"}]}""")
                .when().post("/v1/decision-sets")
                .then().statusCode(400).body("errors[0].field", equalTo("shadow_versions"));
    }

    @Test
    void seedSignalIsPublishedWithTypedData() {
        String messageId = "msg-" + UUID.randomUUID();
        String eventId = given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body(AuditIngestResource.SIGNAL_EXAMPLE.replace("msg-456", messageId))
                .when().post("/v1/behavior-signals")
                .then().statusCode(202).body("receipts", hasSize(1))
                .extract().path("receipts[0].event_id");

        List<ConsumerRecord<String, SignalEvent>> published = TestTopics.read("hindsight.signals.v1",
                SignalEvent.class, e -> e.getHeader().getEventId().toString().equals(eventId), 1,
                Duration.ofSeconds(20));

        assertThat(published).hasSize(1);
        assertThat(published.get(0).key()).isEqualTo(messageId);
        BehaviorSignalRecorded signal = (BehaviorSignalRecorded) published.get(0).value().getPayload();
        assertThat(signal.getSignalType()).isEqualTo(SignalType.USER_FOLLOWUP_OVERRIDE);
        UserFollowupOverride data = (UserFollowupOverride) signal.getSignalData();
        assertThat(data.getDelaySeconds()).isEqualTo(5.0);
        assertThat(data.getUserAction()).isEqualTo("/comm search Python latest version");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "smooth_completion|{\"interaction_duration_seconds\": 30, \"followup_questions\": 0, \"user_satisfaction\": \"implied_high\"}",
            "user_followup_override|{\"user_action\": \"/comm search\", \"delay_seconds\": 5}",
            "delayed_comm_request|{\"user_action\": \"/comm later\", \"delay_seconds\": 120}",
            "reask_same_question|{\"previous_message_id\": \"msg-123\", \"time_gap_seconds\": 60, \"question_hash_match\": true}",
            "phase_violation|{\"violation_type\": \"comm_in_planning_phase\", \"current_phase\": \"planning\", \"required_phase\": \"execution\", \"error_shown\": true}",
            "abandoned_response|{\"elapsed_seconds\": 2}",
            "explicit_feedback|{\"rating\": \"down\", \"comment\": \"outdated\"}"})
    void everyOneOfTheSevenSignalTypesIsAccepted(String type, String data) {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"message_id\": \"m\", \"session_id\": \"s\", \"signal_type\": \"" + type
                        + "\", \"signal_data\": " + data + "}")
                .when().post("/v1/behavior-signals")
                .then().statusCode(202);
    }

    @Test
    void otherSignalTypesAndMistypedDataAreRefusedClearly() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"message_id\": \"m\", \"session_id\": \"s\", \"signal_type\": \"rage_click\"}")
                .when().post("/v1/behavior-signals")
                .then().statusCode(400)
                .body("errors[0].field", equalTo("signal_type"))
                .body("errors[0].message", containsString("smooth_completion"));
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"message_id": "m", "session_id": "s", "signal_type": "reask_same_question",
                         "signal_data": {"time_gap_seconds": "a minute", "question_hash_match": "yes"}}""")
                .when().post("/v1/behavior-signals")
                .then().statusCode(400)
                .body("errors.field", hasItem("signal_data.time_gap_seconds"))
                .body("errors.field", hasItem("signal_data.question_hash_match"));
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"message_id\": \"m\", \"session_id\": \"s\", \"signal_type\": \"explicit_feedback\"}")
                .when().post("/v1/behavior-signals")
                .then().statusCode(400).body("errors[0].field", equalTo("signal_data.rating"));
    }

    @Test
    void undocumentedSignalDataIsKeptNotLost() {
        String eventId = given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"message_id": "m-extra", "session_id": "s", "signal_type": "abandoned_response",
                         "signal_data": {"elapsed_seconds": 3, "tab_hidden": true}}""")
                .when().post("/v1/behavior-signals")
                .then().statusCode(202).extract().path("receipts[0].event_id");
        List<ConsumerRecord<String, SignalEvent>> published = TestTopics.read("hindsight.signals.v1",
                SignalEvent.class, e -> e.getHeader().getEventId().toString().equals(eventId), 1,
                Duration.ofSeconds(20));
        assertThat(((BehaviorSignalRecorded) published.get(0).value().getPayload()).getExtraData())
                .isEqualTo("{\"tab_hidden\":true}");
    }
}
