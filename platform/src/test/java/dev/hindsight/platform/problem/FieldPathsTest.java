package dev.hindsight.platform.problem;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldPathsTest {

    @Test
    void jacksonPathsReadLikeTheJsonTheProducerSent() {
        List<JsonMappingException.Reference> path = List.of(
                new JsonMappingException.Reference(null, "messages"),
                new JsonMappingException.Reference(null, 2),
                new JsonMappingException.Reference(null, "thinking_steps"),
                new JsonMappingException.Reference(null, 0),
                new JsonMappingException.Reference(null, "step_type"));
        assertThat(FieldPaths.of(path)).isEqualTo("messages[2].thinking_steps[0].step_type");
    }

    @Test
    void anEmptyPathIsTheDocumentItself() {
        assertThat(FieldPaths.of(List.<JsonMappingException.Reference>of())).isEqualTo("$");
    }

    @Test
    void javaNamesBecomeSnakeCase() {
        assertThat(FieldPaths.snakeCase("messageIndex")).isEqualTo("message_index");
        assertThat(FieldPaths.snakeCase("toolArguments")).isEqualTo("tool_arguments");
        assertThat(FieldPaths.snakeCase("already_snake")).isEqualTo("already_snake");
        assertThat(FieldPaths.snakeCase("kind")).isEqualTo("kind");
    }

    @Test
    void problemTypesNameTheirStatus() {
        assertThat(Problem.of(400, "t", "d").type()).endsWith("/invalid-request");
        assertThat(Problem.of(503, "t", "d").type()).endsWith("/unavailable");
        assertThat(Problem.of(418, "t", "d").type()).isEqualTo("about:blank");
        assertThat(Problem.of(404, "t", "d").withInstance("/v1/x").instance()).isEqualTo("/v1/x");
    }
}
