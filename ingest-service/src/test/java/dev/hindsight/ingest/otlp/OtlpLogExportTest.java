package dev.hindsight.ingest.otlp;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.hindsight.events.spans.LogRecorded;
import dev.hindsight.events.spans.SpanEvent;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.Value;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.testing.exporter.InMemoryLogRecordExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /otlp/v1/logs} as instrumentations reach it: GenAI events emitted inside a model call's span by the real
 * OpenTelemetry SDK and sent by its OTLP/HTTP log exporter, published to the real broker and read back from
 * {@code hindsight.spans.v1} beside the spans they belong to.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class OtlpLogExportTest {

    private static final String TOPIC = "hindsight.spans.v1";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TestHTTPResource("/otlp/v1/logs")
    URL logs;

    @Test
    void theSdksLogExporterDeliversTheGenAiEventsOfACallAndNoOtherRecordAndARetryIsTheSameEvent() {
        Emitted run = emitted();
        OtlpHttpLogRecordExporter exporter = OtlpHttpLogRecordExporter.builder().setEndpoint(logs.toString())
                .setCompression("gzip").addHeader("Authorization", TestTenants.TENANT_A.bearer()).build();
        try {
            CompletableResultCode result = exporter.export(run.records()).join(30, TimeUnit.SECONDS);
            assertThat(result.isSuccess()).as("export: " + result.getFailureThrowable()).isTrue();
            assertThat(exporter.export(run.records()).join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
        } finally {
            exporter.shutdown();
        }

        List<ConsumerRecord<String, SpanEvent>> records = TestTopics.read(TOPIC, SpanEvent.class,
                e -> e.getTraceId().equals(run.traceId()), 4, WAIT);
        assertThat(records).hasSize(4).allSatisfy(r -> assertThat(r.key()).isEqualTo(run.traceId()));
        assertThat(records.stream().map(r -> r.value().getHeader().getEventId()).distinct())
                .as("a re-export is the same events").hasSize(2);
        assertThat(records.stream().map(r -> log(r.value()).getEventName()).distinct())
                .as("the application's own log record is not among them")
                .containsExactlyInAnyOrder("gen_ai.user.message", "gen_ai.choice");
        LogRecorded choice = records.stream().map(r -> log(r.value()))
                .filter(l -> l.getEventName().equals("gen_ai.choice")).findFirst().orElseThrow();
        assertThat(choice.getSpanId()).isEqualTo(run.spanId());
        assertThat(choice.getBody()).contains("\"content\":\"Try 8 workers.\"");
        assertThat(choice.getScopeName()).isEqualTo("@opentelemetry/instrumentation-openai");
        assertThat(choice.getResourceAttributes()).contains("\"service.name\":\"test-agent\"");
    }

    @Test
    void anEventWithoutItsSpanIsRefusedAloneAndCountedInPartialSuccess() {
        String trace = "2af7651916cd43dd8448eb211c80319c".substring(0, 24) + String.format("%08x", System.nanoTime()
                & 0xffffffffL);
        ExportLogsServiceRequest request = ExportLogsServiceRequest.newBuilder().addResourceLogs(
                ResourceLogs.newBuilder().addScopeLogs(ScopeLogs.newBuilder()
                        .addLogRecords(record(trace, "b7ad6b7169203331"))
                        .addLogRecords(record(trace, "")))).build();

        Response answer = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType("application/x-protobuf").body(request.toByteArray()).when().post("/otlp/v1/logs");

        assertThat(answer.statusCode()).isEqualTo(200);
        ExportLogsServiceResponse response = parse(answer.asByteArray());
        assertThat(response.getPartialSuccess().getRejectedLogRecords()).isEqualTo(1);
        assertThat(response.getPartialSuccess().getErrorMessage()).contains("span_id must be 8 bytes");
        assertThat(TestTopics.read(TOPIC, SpanEvent.class, e -> e.getTraceId().equals(trace), 1, WAIT))
                .extracting(r -> log(r.value()).getSpanId()).containsExactly("b7ad6b7169203331");
    }

    @Test
    void whatCannotBeReadIsAPreciseErrorAndNoKeyIsA401() {
        Response notJson = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType("application/json").body("{\"resourceLogs\": [").when().post("/otlp/v1/logs");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(notJson.contentType()).startsWith("application/problem+json");
        assertThat(notJson.body().asString()).contains("ExportLogsServiceRequest").contains("the body is not JSON");
        given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/x-protobuf")
                .body(new byte[] {(byte) 0xff, 0x01, 0x02}).when().post("/otlp/v1/logs").then().statusCode(400);
        given().contentType("application/json").body("{}").when().post("/otlp/v1/logs").then().statusCode(401);
        given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json").body("{}")
                .when().post("/otlp/v1/logs").then().statusCode(200).body(org.hamcrest.Matchers.equalTo("{}"));
    }

    /** What the SDK emitted inside one model call's span, and that span's ids. */
    private record Emitted(String traceId, String spanId, List<LogRecordData> records) {
    }

    /**
     * A model call as the OpenAI client's instrumentation reports it: inside the call's span, the question as a
     * gen_ai.user.message event and the answer as gen_ai.choice; beside them, a log line of the application's own.
     */
    private static Emitted emitted() {
        InMemoryLogRecordExporter collect = InMemoryLogRecordExporter.create();
        Resource resource = Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "test-agent"));
        try (SdkTracerProvider tracing = SdkTracerProvider.builder().setResource(resource).build();
                SdkLoggerProvider logging = SdkLoggerProvider.builder().setResource(resource)
                        .addLogRecordProcessor(SimpleLogRecordProcessor.create(collect)).build()) {
            Logger logger = logging.get("@opentelemetry/instrumentation-openai");
            Span call = tracing.get("test").spanBuilder("chat gpt-4o-mini").startSpan();
            try (Scope ignored = call.makeCurrent()) {
                logger.logRecordBuilder().setEventName("gen_ai.user.message")
                        .setAttribute(AttributeKey.stringKey("gen_ai.system"), "openai")
                        .setBody(Value.of(Map.of("content", Value.of("How many workers?")))).emit();
                logger.logRecordBuilder().setEventName("gen_ai.choice")
                        .setBody(Value.of(Map.of("index", Value.of(0L), "finish_reason", Value.of("stop"),
                                "message", Value.of(Map.of("role", Value.of("assistant"),
                                        "content", Value.of("Try 8 workers.")))))).emit();
                logger.logRecordBuilder().setBody("connection pool resized").emit();
            } finally {
                call.end();
            }
            List<LogRecordData> records = collect.getFinishedLogRecordItems();
            assertThat(records).hasSize(3);
            return new Emitted(call.getSpanContext().getTraceId(), call.getSpanContext().getSpanId(), records);
        }
    }

    private static LogRecord record(String trace, String spanId) {
        return LogRecord.newBuilder().setTraceId(ByteString.fromHex(trace)).setSpanId(ByteString.fromHex(spanId))
                .setTimeUnixNano(1_700_000_000_000_000_000L).setEventName("gen_ai.user.message")
                .setBody(AnyValue.newBuilder().setStringValue("hello")).build();
    }

    private static LogRecorded log(SpanEvent event) {
        return (LogRecorded) event.getPayload();
    }

    private static ExportLogsServiceResponse parse(byte[] body) {
        try {
            return ExportLogsServiceResponse.parseFrom(body);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError("not an ExportLogsServiceResponse", e);
        }
    }
}
