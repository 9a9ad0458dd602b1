package dev.hindsight.ingest.otlp;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.hindsight.events.spans.SpanConvention;
import dev.hindsight.events.spans.SpanEvent;
import dev.hindsight.events.spans.SpanRecorded;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /otlp/v1/traces} as agents reach it: spans made by the real OpenTelemetry SDK and sent by its OTLP/HTTP
 * exporter (protobuf, gzip) or in the SDK's own OTLP/JSON encoding (the Java exporter has no JSON switch), published
 * to the real broker and read back from {@code hindsight.spans.v1}.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class OtlpResourceTest {

    private static final String TOPIC = "hindsight.spans.v1";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TestHTTPResource("/otlp/v1/traces")
    URL traces;

    @Test
    void theSdksProtobufExporterWithGzipDeliversEveryGenAiSpanAndNoOtherAndARetryIsTheSameEvent() {
        List<SpanData> spans = agentRun("conv-" + System.nanoTime());
        String trace = spans.get(0).getTraceId();
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(traces.toString())
                .setCompression("gzip").addHeader("Authorization", TestTenants.TENANT_A.bearer()).build();
        try {
            CompletableResultCode result = exporter.export(spans).join(30, TimeUnit.SECONDS);
            assertThat(result.isSuccess()).as("export: " + result.getFailureThrowable()).isTrue();
            // Once more, as an exporter retries: the same spans are the same events.
            assertThat(exporter.export(spans).join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
        } finally {
            exporter.shutdown();
        }

        List<ConsumerRecord<String, SpanEvent>> records = TestTopics.read(TOPIC, SpanEvent.class,
                e -> e.getTraceId().equals(trace), 6, WAIT);
        assertThat(records).hasSize(6);
        assertThat(records).allSatisfy(r -> assertThat(r.key()).isEqualTo(trace));
        assertThat(records.stream().map(r -> span(r.value()).getName()).distinct())
                .as("the HTTP span is not among them").containsExactlyInAnyOrder("invoke_agent", "chat gpt-5",
                        "execute_tool search");
        assertThat(records.stream().map(r -> r.value().getHeader().getEventId()).distinct()).hasSize(3);
        SpanEvent chat = records.stream().filter(r -> span(r.value()).getName().equals("chat gpt-5"))
                .findFirst().orElseThrow().value();
        assertThat(chat.getHeader().getTenantId()).isEqualTo("tenant-a");
        assertThat(span(chat).getConvention()).isEqualTo(SpanConvention.GEN_AI);
        assertThat(span(chat).getKind()).isEqualTo("CLIENT");
        assertThat(span(chat).getAttributes()).contains("\"gen_ai.request.model\":\"gpt-5\"")
                .contains("\"gen_ai.usage.input_tokens\":42");
        assertThat(span(chat).getResourceAttributes()).contains("\"service.name\":\"test-agent\"");
        SpanEvent tool = records.stream().filter(r -> span(r.value()).getName().equals("execute_tool search"))
                .findFirst().orElseThrow().value();
        assertThat(span(tool).getStatusCode()).isEqualTo("ERROR");
        assertThat(span(tool).getParentSpanId()).isEqualTo(spans.stream()
                .filter(s -> s.getName().equals("invoke_agent")).findFirst().orElseThrow().getSpanId());
    }

    @Test
    void theSdksOtlpJsonGzippedIsReadAsWellAndAnsweredInJson() throws IOException {
        List<SpanData> spans = agentRun("conv-json-" + System.nanoTime());
        String trace = spans.get(0).getTraceId();
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        TraceRequestMarshaler.create(spans).writeJsonTo(json);
        assertThat(json.toString()).contains("\"traceId\":\"" + trace + "\"");

        Response answer = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType("application/json").header("Content-Encoding", "gzip").body(gzip(json.toByteArray()))
                .when().post("/otlp/v1/traces");

        assertThat(answer.statusCode()).as(answer.body().asString()).isEqualTo(200);
        assertThat(answer.contentType()).startsWith("application/json");
        assertThat(answer.body().asString()).isEqualTo("{}");
        assertThat(TestTopics.read(TOPIC, SpanEvent.class, e -> e.getTraceId().equals(trace), 3, WAIT)).hasSize(3);
    }

    @Test
    void aSpanWithABadIdIsRefusedAloneAndCountedInPartialSuccess() {
        String trace = "0af7651916cd43dd8448eb211c80319c".substring(0, 24) + String.format("%08x", System.nanoTime()
                & 0xffffffffL);
        ExportTraceServiceRequest request = ExportTraceServiceRequest.newBuilder().addResourceSpans(
                ResourceSpans.newBuilder().addScopeSpans(ScopeSpans.newBuilder()
                        .addSpans(span(trace, "b7ad6b7169203331", "chat ok"))
                        .addSpans(span("00000000000000000000000000000000", "b7ad6b7169203332", "chat zero trace"))
                        .addSpans(span(trace, "b7ad6b71", "chat short span id")))).build();

        Response answer = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType("application/x-protobuf").body(request.toByteArray()).when().post("/otlp/v1/traces");

        assertThat(answer.statusCode()).isEqualTo(200);
        ExportTraceServiceResponse response = parse(answer.asByteArray());
        assertThat(response.getPartialSuccess().getRejectedSpans()).isEqualTo(2);
        assertThat(response.getPartialSuccess().getErrorMessage()).contains("'chat zero trace': trace_id must be 16 bytes")
                .contains("'chat short span id': span_id must be 8 bytes");
        assertThat(TestTopics.read(TOPIC, SpanEvent.class, e -> e.getTraceId().equals(trace), 1, WAIT))
                .extracting(r -> span(r.value()).getName()).containsExactly("chat ok");
    }

    @Test
    void inOtlpJsonTooTextThatCannotBeStoredRefusesOnlyItsSpan() {
        String trace = "1af7651916cd43dd8448eb211c80319c".substring(0, 24) + String.format("%08x", System.nanoTime()
                & 0xffffffffL);
        String json = """
                {"resourceSpans": [{"scopeSpans": [{"spans": [
                  {"traceId": "%1$s", "spanId": "b7ad6b7169203331", "name": "chat kept",
                   "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}]},
                  {"traceId": "%1$s", "spanId": "b7ad6b7169203332", "name": "chat with NUL",
                   "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                                  {"key": "gen_ai.output.messages", "value": {"stringValue": "a\\u0000b"}}]},
                  {"traceId": "%1$s", "spanId": "b7ad6b7169203333", "name": "chat with a lone surrogate",
                   "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat \\ud800"}}]}
                ]}]}]}""".formatted(trace);

        Response answer = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType("application/json").body(json).when().post("/otlp/v1/traces");

        assertThat(answer.statusCode()).as(answer.body().asString()).isEqualTo(200);
        assertThat(answer.jsonPath().getLong("partialSuccess.rejectedSpans")).isEqualTo(2);
        assertThat(answer.jsonPath().getString("partialSuccess.errorMessage"))
                .contains("'chat with NUL': attribute 'gen_ai.output.messages' contains the NUL character")
                .contains("'chat with a lone surrogate': attribute 'gen_ai.operation.name' contains a lone surrogate");
        assertThat(TestTopics.read(TOPIC, SpanEvent.class, e -> e.getTraceId().equals(trace), 1, WAIT))
                .extracting(r -> span(r.value()).getName()).containsExactly("chat kept");
    }

    @Test
    void whatCannotBeReadIsAPreciseErrorAndNoKeyIsA401() throws IOException {
        given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/x-protobuf")
                .body(new byte[] {(byte) 0xff, 0x01, 0x02}).when().post("/otlp/v1/traces").then().statusCode(400)
                .contentType("application/problem+json");
        Response notJson = given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json")
                .body("{\"resourceSpans\": [").when().post("/otlp/v1/traces");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(notJson.body().asString()).contains("the body is not JSON");
        given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json")
                .header("Content-Encoding", "br").body("{}").when().post("/otlp/v1/traces").then().statusCode(415);
        given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json")
                .header("Content-Encoding", "gzip").body("not gzip").when().post("/otlp/v1/traces").then()
                .statusCode(400);
        byte[] bomb = gzip(new byte[OtlpResource.MAX_INFLATED_BYTES + 1]);
        given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/x-protobuf")
                .header("Content-Encoding", "gzip").body(bomb).when().post("/otlp/v1/traces").then().statusCode(413);
        given().contentType("application/json").body("{}").when().post("/otlp/v1/traces").then().statusCode(401);
        given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json").body("{}")
                .when().post("/otlp/v1/traces").then().statusCode(200);
    }

    /**
     * An agent's run as the GenAI conventions describe it: invoke_agent, under it a chat with the model and a tool
     * execution that failed; plus an HTTP client span the agent's HTTP library made, which is not GenAI.
     */
    private static List<SpanData> agentRun(String conversation) {
        // Read before the provider closes: shutting the exporter down forgets what it holds.
        InMemorySpanExporter collect = InMemorySpanExporter.create();
        List<SpanData> finished;
        try (SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "test-agent")))
                .addSpanProcessor(SimpleSpanProcessor.create(collect)).build()) {
            Tracer tracer = provider.get("test-agent-instrumentation");
            Span agent = tracer.spanBuilder("invoke_agent").setAttribute("gen_ai.operation.name", "invoke_agent")
                    .setAttribute("gen_ai.conversation.id", conversation).startSpan();
            try (Scope ignored = agent.makeCurrent()) {
                tracer.spanBuilder("chat gpt-5").setSpanKind(SpanKind.CLIENT)
                        .setAttribute("gen_ai.operation.name", "chat").setAttribute("gen_ai.request.model", "gpt-5")
                        .setAttribute("gen_ai.usage.input_tokens", 42L)
                        .setAttribute("gen_ai.input.messages",
                                "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"Find the bug\"}]}]")
                        .startSpan().end();
                Span tool = tracer.spanBuilder("execute_tool search")
                        .setAttribute("gen_ai.operation.name", "execute_tool").setAttribute("gen_ai.tool.name", "search")
                        .startSpan();
                tool.setStatus(StatusCode.ERROR, "timeout");
                tool.end();
                tracer.spanBuilder("GET /api").setSpanKind(SpanKind.CLIENT)
                        .setAttribute("http.request.method", "GET").startSpan().end();
            } finally {
                agent.end();
            }
            finished = collect.getFinishedSpanItems();
        }
        assertThat(finished).hasSize(4);
        return finished;
    }

    private static io.opentelemetry.proto.trace.v1.Span span(String trace, String spanId, String name) {
        return io.opentelemetry.proto.trace.v1.Span.newBuilder()
                .setTraceId(ByteString.fromHex(trace)).setSpanId(ByteString.fromHex(spanId)).setName(name)
                .addAttributes(KeyValue.newBuilder().setKey("gen_ai.operation.name")
                        .setValue(AnyValue.newBuilder().setStringValue("chat")))
                .build();
    }

    private static SpanRecorded span(SpanEvent event) {
        return (SpanRecorded) event.getPayload();
    }

    private static ExportTraceServiceResponse parse(byte[] body) {
        try {
            return ExportTraceServiceResponse.parseFrom(body);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError("not an ExportTraceServiceResponse", e);
        }
    }

    private static byte[] gzip(byte[] raw) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(raw);
        }
        return out.toByteArray();
    }
}
