package dev.hindsight.platform.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.hindsight.platform.problem.FieldPaths;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StorableJsonTest {

    record Step(String content, JsonNode toolArguments) {
    }

    record Position(Double price, double amount) {
    }

    record Message(String content, List<Step> thinkingSteps, List<String> tags, Map<String, String> labels) {
    }

    private final ObjectMapper json = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .registerModule(StorableJson.module());

    private String refusedAt(String body, Class<?> type) {
        try {
            json.readValue(body, type);
        } catch (UnstorableValueException e) {
            return FieldPaths.of(e.getPath()) + ": " + e.reason();
        } catch (Exception e) {
            throw new AssertionError("expected an UnstorableValueException, got " + e, e);
        }
        throw new AssertionError("accepted " + body);
    }

    @Test
    void storableValuesAreReadAsSent() throws Exception {
        Message message = json.readValue("""
                {"content": "a\\u0001b\\t\\ud83d\\ude00", "thinking_steps": [{"content": "x",
                 "tool_arguments": {"deep": [[[1e308, -1.5, 123456789012345678901234567890, "\\u001f"]]]}}],
                 "tags": ["t\\u007f"], "labels": {"k\\u0002": "v"}}""", Message.class);
        assertThat(message.content()).isEqualTo("a\u0001b\t\uD83D\uDE00");
        assertThat(message.thinkingSteps().get(0).toolArguments().at("/deep/0/0/3").textValue()).isEqualTo("\u001f");
        assertThat(message.tags()).containsExactly("t\u007f");
        assertThat(message.labels()).containsEntry("k\u0002", "v");
    }

    @Test
    void anEscapedPairIsOneCharacterInNamesAndValuesReadFromBytes() throws Exception {
        // As Python's json.dumps writes non-ASCII by default; the byte parser of jackson-core 2.21.0-2.21.1 refused it
        // in a field name.
        byte[] body = "{\"labels\": {\"\\ud83d\\ude00\": \"\\ud83d\\ude00\"}}".getBytes(
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(json.readValue(body, Message.class).labels()).containsEntry("\uD83D\uDE00", "\uD83D\uDE00");
        assertThat(json.readTree(body).path("labels").fieldNames().next()).isEqualTo("\uD83D\uDE00");
    }

    @Test
    void aRefusedValueIsNamedByItsPath() {
        assertThat(refusedAt("{\"content\": \"a\\u0000\"}", Message.class))
                .startsWith("content: contains the NUL character (U+0000) at character 1");
        assertThat(refusedAt("{\"thinking_steps\": [{}, {\"content\": \"\\ud800\"}]}", Message.class))
                .startsWith("thinking_steps[1].content: contains a lone surrogate (U+D800)");
        assertThat(refusedAt("{\"tags\": [\"ok\", \"\\udfff\"]}", Message.class)).startsWith("tags[1]: contains");
        assertThat(refusedAt("{\"labels\": {\"a\": \"\\u0000\"}}", Message.class)).startsWith("labels.a: contains");
        assertThat(refusedAt("{\"labels\": {\"a\\u0000\": \"b\"}}", Message.class))
                .startsWith("labels: the field name contains the NUL character");
    }

    @Test
    void typedNumbersBeyondADoubleAreRefusedToo() throws Exception {
        assertThat(json.readValue("{\"price\": 1e308, \"amount\": -2.5}", Position.class))
                .isEqualTo(new Position(1e308, -2.5));
        assertThat(json.readValue("{\"price\": null}", Position.class)).isEqualTo(new Position(null, 0));
        assertThat(refusedAt("{\"price\": 1e400}", Position.class)).startsWith("price: is a number beyond");
        assertThat(refusedAt("{\"amount\": -1e400}", Position.class)).startsWith("amount: is a number beyond");
        assertThat(refusedAt("{\"price\": \"Infinity\"}", Position.class)).startsWith("price: is a number beyond");
        assertThat(refusedAt("{\"amount\": \"NaN\"}", Position.class)).startsWith("amount: is a number beyond");
    }

    @Test
    void insideFreeFormJsonTheExactPlaceIsNamed() {
        assertThat(refusedAt("""
                {"thinking_steps": [{"tool_arguments": {"q": ["fine", {"x": "\\u0000"}]}}]}""", Message.class))
                .startsWith("thinking_steps[0].tool_arguments.q[1].x: contains the NUL character");
        assertThat(refusedAt("""
                {"thinking_steps": [{"tool_arguments": {"n": [1, 1e400]}}]}""", Message.class))
                .startsWith("thinking_steps[0].tool_arguments.n[1]: is a number beyond the range");
        assertThat(refusedAt("""
                {"thinking_steps": [{"tool_arguments": {"ok": 1, "bad\\u0000": 2}}]}""", Message.class))
                .startsWith("thinking_steps[0].tool_arguments.bad\u0000: the field name contains the NUL character");
        // A lone surrogate in a field name is refused by Jackson's parser itself (jackson-core 2.21.2 and later).
        assertThatThrownBy(() -> json.readValue("""
                {"thinking_steps": [{"tool_arguments": {"ok": 1, "bad\\ud800": 2}}]}""", Message.class))
                .isInstanceOf(com.fasterxml.jackson.core.JsonProcessingException.class)
                .hasMessageContaining("surrogate");
    }

    @Test
    void wholeTreesAreCheckedToo() throws Exception {
        assertThat(json.readTree("{\"a\": [\"\\u0001\", 2.5]}").at("/a/1").doubleValue()).isEqualTo(2.5);
        assertThat(refusedAt("{\"a\": {\"b\": [0, \"\\u0000\"]}}", JsonNode.class))
                .startsWith("a.b[1]: contains the NUL character");
        assertThatThrownBy(() -> json.readTree("[\"\\udbff\"]")).isInstanceOf(UnstorableValueException.class);
    }

    @Test
    void nullsAndAbsentValuesAreReadAsJacksonReadsThem() throws Exception {
        ObjectMapper plain = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        for (String body : List.of("{\"content\": null, \"tool_arguments\": null}", "{}",
                "{\"tool_arguments\": {}}")) {
            assertThat(json.readValue(body, Step.class)).as(body).isEqualTo(plain.readValue(body, Step.class));
        }
        assertThat(json.readTree("null")).isEqualTo(plain.readTree("null"));
    }

    record Typed(String name, Boolean judge, Integer index, Double price, java.time.OffsetDateTime at,
            java.time.Instant expires, java.time.LocalDate date) {
    }

    @Test
    void aTypedFieldTakesOnlyItsOwnJsonTypeAsThePublishedDocumentsSay() throws Exception {
        ObjectMapper strict = new ObjectMapper().findAndRegisterModules()
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        new StorableJsonCustomizer().customize(strict);

        Typed read = strict.readValue("""
                {"name": "n", "judge": true, "index": 3, "price": 1.5, "at": "2025-10-02T10:00:00Z",
                 "expires": "2026-01-01T00:00:00Z"}""", Typed.class);
        assertThat(read.at()).isEqualTo(java.time.OffsetDateTime.parse("2025-10-02T10:00:00Z"));
        assertThat(read.index()).isEqualTo(3);
        for (String wrong : List.of("{\"name\": 42}", "{\"name\": true}", "{\"judge\": \"true\"}",
                "{\"judge\": 1}", "{\"index\": \"3\"}", "{\"index\": 1.5}", "{\"price\": \"1.5\"}",
                "{\"at\": 1700000000}", "{\"expires\": 1700000000.5}", "{\"date\": 20000}")) {
            assertThatThrownBy(() -> strict.readValue(wrong, Typed.class)).as(wrong)
                    .isInstanceOf(com.fasterxml.jackson.databind.exc.MismatchedInputException.class);
        }
        for (String blank : List.of("{\"at\": \"\"}", "{\"date\": \" \"}")) {
            assertThatThrownBy(() -> strict.readValue(blank, Typed.class)).as(blank)
                    .isInstanceOf(com.fasterxml.jackson.databind.exc.InvalidFormatException.class);
        }
        assertThat(strict.readValue("{\"price\": 2, \"name\": null}", Typed.class).price()).isEqualTo(2.0);
    }
}
