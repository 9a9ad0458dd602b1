package dev.hindsight.ingest.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OtlpLogsTest {

    private static final String TRACE = "5b8efff798038103d269b633813fc60c";
    private static final String SPAN = "eee19b7ec3c1b174";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TenantId TENANT = TenantId.of("tenant-a");

    private static OtlpLogs.Result logs(LogRecord... records) {
        return OtlpLogs.of(request(records), Redactor.redactingEveryTenant(), TENANT);
    }

    @Test
    void genAiEventsAreKeptByEitherFormOfTheirNameAndOtherRecordsIgnored() {
        OtlpLogs.Result result = logs(
                record().setEventName("gen_ai.user.message").build(),
                record().addAttributes(attribute("event.name", text("gen_ai.choice"))).build(),
                record().setEventName("gen_ai.client.inference.operation.details").build(),
                record().setEventName("app.started").build(),
                record().setBody(text("GET /health 200")).build());

        assertThat(result.kept()).extracting(k -> k.log().getEventName()).containsExactly("gen_ai.user.message",
                "gen_ai.choice", "gen_ai.client.inference.operation.details");
        assertThat(result.kept()).allSatisfy(k -> {
            assertThat(k.traceId()).isEqualTo(TRACE);
            assertThat(k.log().getSpanId()).isEqualTo(SPAN);
            assertThat(k.log().getScopeName()).isEqualTo("@opentelemetry/instrumentation-openai");
            assertThat(k.log().getResourceAttributes()).isEqualTo("{\"service.name\":\"agent\"}");
        });
        assertThat(result.ignored()).isEqualTo(2);
        assertThat(result.rejected()).isZero();
    }

    @Test
    void eachEventKeepsItsPlaceAmongItsSpansEventsInTheRequest() {
        OtlpLogs.Result result = logs(
                record().setEventName("gen_ai.system.message").build(),
                record().setEventName("gen_ai.user.message").setSpanId(ByteString.fromHex("eee19b7ec3c1b175")).build(),
                record().setBody(text("an application log line between them")).build(),
                record().setEventName("gen_ai.user.message").build(),
                record().setEventName("gen_ai.user.message").build());

        assertThat(result.kept()).extracting(k -> k.log().getSpanId() + "#" + k.log().getPosition())
                .containsExactly(SPAN + "#0", "eee19b7ec3c1b175#0", SPAN + "#1", SPAN + "#2");
    }

    @Test
    void anEventThatNamesNoSpanOrHoldsUnstorableTextIsRefusedAloneAndSaysWhy() {
        OtlpLogs.Result result = logs(
                record().setEventName("gen_ai.user.message").setTraceId(ByteString.EMPTY).build(),
                record().setEventName("gen_ai.user.message").setSpanId(ByteString.copyFrom(new byte[8])).build(),
                record().setEventName("gen_ai.choice").setBody(kvlist(attribute("content", text("a\u0000b"))))
                        .build(),
                record().setEventName("gen_ai.choice").build());

        assertThat(result.rejected()).isEqualTo(3);
        assertThat(result.reasons()).hasSize(3);
        assertThat(result.reasons().get(0)).startsWith("log record 'gen_ai.user.message': trace_id must be 16 bytes");
        assertThat(result.reasons().get(1)).startsWith("log record 'gen_ai.user.message': span_id must be 8 bytes");
        assertThat(result.reasons().get(2)).startsWith("log record 'gen_ai.choice': 'body.content'");
        assertThat(result.kept()).hasSize(1);
    }

    @Test
    void theBodyBecomesPlainJsonAndItsSecretsAndTheAttributesAreRedactedAmongTheirValues() throws Exception {
        String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        LogRecord choice = record().setEventName("gen_ai.choice").setTimeUnixNano(0).setObservedTimeUnixNano(77)
                .setBody(kvlist(attribute("index", AnyValue.newBuilder().setIntValue(0).build()),
                        attribute("message", kvlist(attribute("role", text("assistant")),
                                attribute("content", text("marker-1 use " + jwt)),
                                attribute("tool_calls", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                                        .addValues(kvlist(attribute("id", text("call-1")),
                                                attribute("function", kvlist(attribute("name", text("fetch")),
                                                        attribute("arguments", text("{\"auth\": \"Bearer "
                                                                + jwt + "\"}"))))))).build())))))
                .addAttributes(attribute("gen_ai.system", text("openai")))
                .addAttributes(attribute("note", text("marker-2 " + jwt)))
                .build();

        OtlpLogs.Kept kept = logs(choice).kept().get(0);

        assertThat(kept.log().getTimeUnixNano()).as("observed time when the record has none").isEqualTo(77);
        JsonNode body = JSON.readTree(kept.log().getBody());
        assertThat(body.path("index").asInt(-1)).isZero();
        assertThat(body.path("message").path("content").asText()).isEqualTo("marker-1 use [REDACTED:jwt]");
        assertThat(body.path("message").path("tool_calls").get(0).path("function").path("arguments").asText())
                .isEqualTo("{\"auth\":\"Bearer [REDACTED:jwt]\"}");
        assertThat(JSON.readTree(kept.log().getAttributes()).path("note").asText())
                .isEqualTo("marker-2 [REDACTED:jwt]");
        assertThat(kept.log().getBody() + kept.log().getAttributes()).doesNotContain(jwt);
    }

    @Test
    void underKeepTheBodyIsKeptAsSentAndAStringBodyStaysAString() throws Exception {
        String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        OtlpLogs.Result result = OtlpLogs.of(request(record().setEventName("gen_ai.user.message")
                .setBody(text("token " + jwt)).build()), Redactor.keeping(TENANT), TENANT);

        assertThat(JSON.readTree(result.kept().get(0).log().getBody()).asText()).isEqualTo("token " + jwt);
    }

    @Test
    void aBodyLongerThanTheLimitIsCutAndNamed() {
        String over = "z".repeat(OtlpSpans.MAX_VALUE_CHARS + 10);

        OtlpLogs.Kept kept = logs(record().setEventName("gen_ai.tool.message").setBody(text(over)).build())
                .kept().get(0);

        assertThat(kept.log().getTruncated()).containsExactly("body");
        assertThat(kept.log().getBody()).hasSize(OtlpSpans.MAX_VALUE_CHARS + 2);
    }

    @Test
    void otlpJsonLogsAreReadWithHexIds() {
        String json = """
                {"resourceLogs": [{"resource": {"attributes": [{"key": "service.name",
                  "value": {"stringValue": "agent"}}]},
                  "scopeLogs": [{"scope": {"name": "openai"}, "logRecords": [{
                    "timeUnixNano": "1700000000000000000", "traceId": "%s", "spanId": "%s",
                    "eventName": "gen_ai.user.message",
                    "body": {"kvlistValue": {"values": [{"key": "content", "value": {"stringValue": "hi"}}]}}
                  }]}]}]}""".formatted(TRACE, SPAN);

        OtlpLogs.Result result = OtlpLogs.of(OtlpJson.logs(json.getBytes(StandardCharsets.UTF_8), JSON),
                Redactor.redactingEveryTenant(), TENANT);

        assertThat(result.kept()).singleElement().satisfies(k -> {
            assertThat(k.traceId()).isEqualTo(TRACE);
            assertThat(k.log().getSpanId()).isEqualTo(SPAN);
            assertThat(k.log().getBody()).isEqualTo("{\"content\":\"hi\"}");
            assertThat(k.log().getTimeUnixNano()).isEqualTo(1_700_000_000_000_000_000L);
        });
    }

    private static LogRecord.Builder record() {
        return LogRecord.newBuilder().setTimeUnixNano(1_700_000_000_000_000_000L)
                .setTraceId(ByteString.fromHex(TRACE)).setSpanId(ByteString.fromHex(SPAN));
    }

    private static ExportLogsServiceRequest request(LogRecord... records) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder()
                .setScope(InstrumentationScope.newBuilder().setName("@opentelemetry/instrumentation-openai"));
        for (LogRecord record : records) {
            scope.addLogRecords(record);
        }
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(attribute("service.name", text("agent"))))
                .addScopeLogs(scope)).build();
    }

    private static KeyValue attribute(String key, AnyValue value) {
        return KeyValue.newBuilder().setKey(key).setValue(value).build();
    }

    private static AnyValue text(String value) {
        return AnyValue.newBuilder().setStringValue(value).build();
    }

    private static AnyValue kvlist(KeyValue... values) {
        KeyValueList.Builder list = KeyValueList.newBuilder();
        for (KeyValue value : values) {
            list.addValues(value);
        }
        return AnyValue.newBuilder().setKvlistValue(list).build();
    }
}
