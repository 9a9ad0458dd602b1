package dev.hindsight.ingest.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import dev.hindsight.events.spans.SpanConvention;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OtlpSpansTest {

    private static final String TRACE = "5b8efff798038103d269b633813fc60c";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TenantId TENANT = TenantId.of("tenant-a");

    /** The spans an export keeps, redacted as the default policy says. */
    private static OtlpSpans.Result spans(ExportTraceServiceRequest request) {
        return OtlpSpans.of(request, Redactor.redactingEveryTenant(), TENANT);
    }

    @Test
    void genAiAndOpenInferenceSpansAreKeptAndOthersIgnored() {
        OtlpSpans.Result result = spans(request(
                span("eee19b7ec3c1b174", "chat", attribute("gen_ai.operation.name", text("chat"))),
                span("eee19b7ec3c1b175", "llm", attribute("openinference.span.kind", text("LLM"))),
                span("eee19b7ec3c1b176", "both", attribute("llm.model_name", text("gpt-5")),
                        attribute("gen_ai.request.model", text("gpt-5"))),
                span("eee19b7ec3c1b177", "GET /", attribute("http.request.method", text("GET"))),
                Span.newBuilder(span("eee19b7ec3c1b178", "old events")).addEvents(Span.Event.newBuilder()
                        .setName("gen_ai.user.message").setTimeUnixNano(5)).build()));

        assertThat(result.kept()).extracting(k -> k.span().getName() + "=" + k.span().getConvention())
                .containsExactly("chat=GEN_AI", "llm=OPENINFERENCE", "both=GEN_AI", "old events=GEN_AI");
        assertThat(result.ignored()).isEqualTo(1);
        assertThat(result.rejected()).isZero();
        assertThat(result.kept()).allSatisfy(k -> assertThat(k.traceId()).isEqualTo(TRACE));
    }

    @Test
    void badIdsRefuseTheirSpanAloneAndSayWhy() {
        OtlpSpans.Result result = spans(request(
                Span.newBuilder(genAi("eee19b7ec3c1b174")).setTraceId(ByteString.copyFrom(new byte[16])).build(),
                Span.newBuilder(genAi("eee19b7ec3c1b175")).setTraceId(ByteString.fromHex("5b8efff7")).build(),
                Span.newBuilder(genAi("eee19b7ec3c1b176")).setSpanId(ByteString.copyFrom(new byte[8])).build(),
                Span.newBuilder(genAi("eee19b7ec3c1b177")).setParentSpanId(ByteString.fromHex("0102")).build(),
                Span.newBuilder(genAi("eee19b7ec3c1b178")).setParentSpanId(ByteString.fromHex("0102030405060708"))
                        .build()));

        assertThat(result.rejected()).isEqualTo(4);
        assertThat(result.reasons()).containsExactly("span 'chat': trace_id must be 16 bytes, not all zero",
                "span 'chat': trace_id must be 16 bytes, not all zero", "span 'chat': span_id must be 8 bytes, not all zero",
                "span 'chat': parent_span_id must be empty or 8 bytes, not all zero");
        assertThat(result.kept()).singleElement().satisfies(k -> {
            assertThat(k.span().getSpanId()).isEqualTo("eee19b7ec3c1b178");
            assertThat(k.span().getParentSpanId()).isEqualTo("0102030405060708");
        });
    }

    @Test
    void attributesBecomePlainJsonOfTheirTypesAndLongValuesAreCutAndNamed() throws Exception {
        String limit = "x".repeat(OtlpSpans.MAX_VALUE_CHARS);
        // A value one char over the limit whose last kept char would split a surrogate pair.
        String over = "y".repeat(OtlpSpans.MAX_VALUE_CHARS - 1) + "\uD83D\uDE00";
        Span span = Span.newBuilder(span("eee19b7ec3c1b174", "chat",
                        attribute("gen_ai.operation.name", text("chat")),
                        attribute("gen_ai.usage.input_tokens", AnyValue.newBuilder().setIntValue(42).build()),
                        attribute("temperature", AnyValue.newBuilder().setDoubleValue(0.5).build()),
                        attribute("stream", AnyValue.newBuilder().setBoolValue(true).build()),
                        attribute("gen_ai.response.finish_reasons", AnyValue.newBuilder().setArrayValue(ArrayValue
                                .newBuilder().addValues(text("stop")).addValues(text("length"))).build()),
                        attribute("tool", AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                                .addValues(attribute("name", text("search")))).build()),
                        attribute("raw", AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(new byte[] {1, -1}))
                                .build()),
                        attribute("at.limit", text(limit)),
                        attribute("over.limit", text(over))))
                .setKind(Span.SpanKind.SPAN_KIND_CLIENT)
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("boom"))
                .addEvents(Span.Event.newBuilder().setName("gen_ai.choice").setTimeUnixNano(7)
                        .addAttributes(attribute("message", text(limit + "z"))))
                .build();

        var recorded = spans(request(span)).kept().get(0).span();

        var attributes = JSON.readTree(recorded.getAttributes());
        assertThat(attributes.get("gen_ai.usage.input_tokens").isIntegralNumber()).isTrue();
        assertThat(attributes.get("gen_ai.usage.input_tokens").asLong()).isEqualTo(42);
        assertThat(attributes.get("temperature").asDouble()).isEqualTo(0.5);
        assertThat(attributes.get("stream").asBoolean()).isTrue();
        assertThat(attributes.get("gen_ai.response.finish_reasons").toString()).isEqualTo("[\"stop\",\"length\"]");
        assertThat(attributes.get("tool").toString()).isEqualTo("{\"name\":\"search\"}");
        assertThat(attributes.get("raw").asText()).isEqualTo("01ff");
        assertThat(attributes.get("at.limit").asText()).hasSize(OtlpSpans.MAX_VALUE_CHARS);
        assertThat(attributes.get("over.limit").asText()).hasSize(OtlpSpans.MAX_VALUE_CHARS - 1)
                .doesNotContain("\uD83D");
        assertThat(recorded.getTruncated()).containsExactly("over.limit", "0/message");
        assertThat(recorded.getKind()).isEqualTo("CLIENT");
        assertThat(recorded.getStatusCode()).isEqualTo("ERROR");
        assertThat(recorded.getStatusMessage()).isEqualTo("boom");
        assertThat(recorded.getEvents()).singleElement().satisfies(e -> {
            assertThat(e.getName()).isEqualTo("gen_ai.choice");
            assertThat(e.getTimeUnixNano()).isEqualTo(7);
        });
        assertThat(recorded.getConvention()).isEqualTo(SpanConvention.GEN_AI);
    }

    @Test
    void aSpanWhoseTextCannotBeStoredOrWhoseSessionIdIsTooLongIsRefusedAloneWithWhereAndWhy() {
        AnyValue nestedNul = AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                .addValues(attribute("parts", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                        .addValues(text("ok")).addValues(text("a\u0000b"))).build()))).build();
        OtlpSpans.Result result = spans(request(
                span("eee19b7ec3c1b171", "chat", attribute("gen_ai.operation.name", text("chat")),
                        attribute("gen_ai.input.messages", nestedNul)),
                span("eee19b7ec3c1b172", "chat", attribute("gen_ai.operation.name", text("chat")),
                        attribute("gen_ai.prompt\u0000", text("x"))),
                Span.newBuilder(genAi("eee19b7ec3c1b173")).addEvents(Span.Event.newBuilder()
                        .setName("gen_ai.user.message").addAttributes(attribute("content", text("lone \uD800"))))
                        .build(),
                Span.newBuilder(genAi("eee19b7ec3c1b174")).setStatus(Status.newBuilder()
                        .setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("\u0000")).build(),
                span("eee19b7ec3c1b175", "chat", attribute("gen_ai.operation.name", text("chat")),
                        attribute("gen_ai.conversation.id", text("c".repeat(OtlpSpans.MAX_SESSION_ID_CHARS + 1)))),
                span("eee19b7ec3c1b176", "chat", attribute("gen_ai.operation.name", text("chat")),
                        attribute("gen_ai.conversation.id", text("c".repeat(OtlpSpans.MAX_SESSION_ID_CHARS))),
                        attribute("control", text("tab\tbell\u0007 and \uD83D\uDE00 are stored as sent")))));

        assertThat(result.rejected()).isEqualTo(5);
        assertThat(result.reasons()).satisfiesExactly(
                r -> assertThat(r).startsWith("span 'chat': attribute 'gen_ai.input.messages.parts[1]' contains the NUL")
                        .contains("at character 1"),
                r -> assertThat(r).startsWith("span 'chat': attribute 'gen_ai.prompt\u0000' contains the NUL"),
                r -> assertThat(r).startsWith("span 'chat': event 'gen_ai.user.message' attribute 'content' "
                        + "contains a lone surrogate (U+D800) at character 5"),
                r -> assertThat(r).startsWith("span 'chat': status message contains the NUL"),
                r -> assertThat(r).isEqualTo("span 'chat': attribute gen_ai.conversation.id is longer than a "
                        + "session id may be (128 characters)"));
        assertThat(result.kept()).singleElement().satisfies(k -> assertThat(k.span().getSpanId())
                .isEqualTo("eee19b7ec3c1b176"));

        OtlpSpans.Result fromResource = spans(ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(io.opentelemetry.proto.resource.v1.Resource.newBuilder()
                                .addAttributes(attribute("service.name", text("agent\u0000"))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(genAi("eee19b7ec3c1b177"))))
                .build());
        assertThat(fromResource.kept()).isEmpty();
        assertThat(fromResource.reasons()).singleElement().asString()
                .startsWith("span 'chat': resource attribute 'service.name' contains the NUL");
    }

    @Test
    void otlpJsonTakesHexIdsInEitherFieldNamingAndABadIdRefusesOnlyItsSpan() {
        String json = """
                {"resource_spans": [{"resource": {"attributes": [{"key": "service.name",
                    "value": {"stringValue": "agent"}}]},
                  "scopeSpans": [{"scope": {"name": "openinference"}, "spans": [
                    {"traceId": "%s", "span_id": "eee19b7ec3c1b174", "name": "llm", "kind": 3,
                     "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": 1700000000500000000,
                     "attributes": [{"key": "openinference.span.kind", "value": {"stringValue": "LLM"}}],
                     "unknownField": true},
                    {"traceId": "not-hex", "spanId": "eee19b7ec3c1b175", "name": "bad",
                     "attributes": [{"key": "openinference.span.kind", "value": {"stringValue": "LLM"}}]}]}]}]}
                """.formatted(TRACE);

        OtlpSpans.Result result = spans(OtlpJson.traces(json.getBytes(StandardCharsets.UTF_8), JSON));

        assertThat(result.kept()).singleElement().satisfies(k -> {
            assertThat(k.traceId()).isEqualTo(TRACE);
            assertThat(k.span().getSpanId()).isEqualTo("eee19b7ec3c1b174");
            assertThat(k.span().getKind()).isEqualTo("CLIENT");
            assertThat(k.span().getStartTimeUnixNano()).isEqualTo(1_700_000_000_000_000_000L);
            assertThat(k.span().getEndTimeUnixNano()).isEqualTo(1_700_000_000_500_000_000L);
            assertThat(k.span().getScopeName()).isEqualTo("openinference");
            assertThat(k.span().getResourceAttributes()).isEqualTo("{\"service.name\":\"agent\"}");
        });
        assertThat(result.rejected()).isEqualTo(1);
        assertThatThrownBy(() -> OtlpJson.traces("[1]".getBytes(StandardCharsets.UTF_8), JSON))
                .hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> OtlpJson.traces("{\"resourceSpans\": 3}".getBytes(StandardCharsets.UTF_8), JSON))
                .hasMessageContaining("not an OTLP/JSON ExportTraceServiceRequest");
    }

    @Test
    void secretsInAttributesAndStatusAreRedactedAmongTheDecodedValuesBeforeAnythingIsCut() throws Exception {
        // Assembled at run time: the repository holds no string a secret scanner would take for a leaked key.
        String key = "AK" + "IA" + "Q7RT2KX9LMN4PZ8V";
        String token = "gh" + "p_" + "q7Rt2Kx9LmN4pZ8vW3sY6bJ1cH5dF0gAq7Rt";
        String messages = JSON.writeValueAsString(JSON.readTree("[{\"role\": \"user\", \"parts\": [{\"type\": "
                + "\"text\", \"content\": \"deploy with " + key + "\"}]}]"));
        // A secret across the point where the value is cut: redacted whole before the cut, so no part of it is left.
        String long_ = "x".repeat(OtlpSpans.MAX_VALUE_CHARS - 10) + " " + token + " and more";
        Span span = span("eee19b7ec3c1b174", "chat",
                        attribute("gen_ai.operation.name", text("chat")),
                        attribute("gen_ai.input.messages", text(messages)),
                        attribute("llm.input_messages.0.message.content", text("use token " + token)),
                        attribute("http.request.header.authorization", text("Bearer " + "tok9f8e7d6c5b4a3f2e1d0c9b8a")),
                        attribute("input.value", text(long_)))
                .toBuilder().setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR)
                        .setMessage("403 for " + key))
                .addEvents(Span.Event.newBuilder().setName("gen_ai.user.message").setTimeUnixNano(7)
                        .addAttributes(attribute("content", text("again " + token))))
                .build();

        var recorded = spans(request(span)).kept().get(0).span();

        assertThat(recorded.toString()).doesNotContain(key).doesNotContain(token).doesNotContain(token.substring(0, 12))
                .doesNotContain("tok9f8e7d6c5b4a3f2e1d0c9b8a");
        var attributes = JSON.readTree(recorded.getAttributes());
        assertThat(JSON.readTree(attributes.get("gen_ai.input.messages").textValue()).at("/0/parts/0/content")
                .textValue()).isEqualTo("deploy with [REDACTED:aws-access-key-id]");
        assertThat(attributes.get("llm.input_messages.0.message.content").textValue())
                .isEqualTo("use token [REDACTED:github-token]");
        assertThat(attributes.get("http.request.header.authorization").textValue())
                .isEqualTo("Bearer [REDACTED:bearer-token]");
        assertThat(attributes.get("input.value").textValue()).hasSize(OtlpSpans.MAX_VALUE_CHARS)
                .endsWith(" [REDACTED");
        assertThat(recorded.getTruncated()).containsExactly("input.value");
        assertThat(recorded.getStatusMessage()).isEqualTo("403 for [REDACTED:aws-access-key-id]");
        assertThat(JSON.readTree(recorded.getEvents().get(0).getAttributes()).get("content").textValue())
                .isEqualTo("again [REDACTED:github-token]");
    }

    @Test
    void underKeepTheAttributesArePublishedAsSent() {
        String key = "AK" + "IA" + "Q7RT2KX9LMN4PZ8V";
        Span span = span("eee19b7ec3c1b174", "chat", attribute("gen_ai.operation.name", text("chat")),
                attribute("input.value", text("key " + key)));

        var recorded = OtlpSpans.of(request(span), Redactor.keeping(TENANT), TENANT).kept().get(0).span();

        assertThat(recorded.getAttributes()).contains(key);
    }

    private static ExportTraceServiceRequest request(Span... spans) {
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addAllSpans(List.of(spans)))).build();
    }

    private static Span genAi(String spanId) {
        return span(spanId, "chat", attribute("gen_ai.operation.name", text("chat")));
    }

    private static Span span(String spanId, String name, KeyValue... attributes) {
        return Span.newBuilder().setTraceId(ByteString.fromHex(TRACE)).setSpanId(ByteString.fromHex(spanId))
                .setName(name).addAllAttributes(new ArrayList<>(List.of(attributes))).build();
    }

    private static KeyValue attribute(String key, AnyValue value) {
        return KeyValue.newBuilder().setKey(key).setValue(value).build();
    }

    private static AnyValue text(String value) {
        return AnyValue.newBuilder().setStringValue(value).build();
    }
}
