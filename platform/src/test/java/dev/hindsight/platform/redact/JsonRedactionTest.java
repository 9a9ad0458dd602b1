package dev.hindsight.platform.redact;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** Secrets among a JSON document's values: found by key and by form, however deep, and the document survives. */
class JsonRedactionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonRedaction redaction = new JsonRedaction(new SecretScrubber());

    @Test
    void anAuthorizationHeaderInsideToolArgumentsLosesItsCredentialAndKeepsItsScheme() throws Exception {
        String token = Fakes.token("tok", 24);
        String arguments = "{\"url\": \"https://api.example.com/v1/orders\", \"method\": \"GET\","
                + " \"headers\": {\"Authorization\": \"Bearer " + token + "\", \"Accept\": \"application/json\"}}";

        String redacted = redaction.redact(arguments);

        assertThat(redacted).doesNotContain(token);
        JsonNode tree = JSON.readTree(redacted);
        assertThat(tree.at("/headers/Authorization").textValue()).isEqualTo("Bearer [REDACTED:bearer-token]");
        assertThat(tree.at("/headers/Accept").textValue()).isEqualTo("application/json");
        assertThat(tree.at("/url").textValue()).isEqualTo("https://api.example.com/v1/orders");
    }

    @Test
    void aValueIsJudgedAsTheValueOfItsKey() throws Exception {
        String redacted = redaction.redact("{\"db\": {\"user\": \"app\", \"password\": \"hunter2\"},"
                + " \"x-api-key\": \"" + Fakes.token("k", 16) + "\", \"token_type\": \"bearer\", \"max_tokens\": 512,"
                + " \"secret_santa\": \"Alice\"}");

        JsonNode tree = JSON.readTree(redacted);
        assertThat(tree.at("/db/password").textValue()).isEqualTo("[REDACTED:password]");
        assertThat(tree.at("/db/user").textValue()).isEqualTo("app");
        assertThat(tree.at("/x-api-key").textValue()).isEqualTo("[REDACTED:api-key]");
        assertThat(tree.at("/token_type").textValue()).isEqualTo("bearer");
        assertThat(tree.at("/max_tokens").intValue()).isEqualTo(512);
        assertThat(tree.at("/secret_santa").textValue()).isEqualTo("Alice");
    }

    @Test
    void aJsonDocumentHeldInAStringValueIsRedactedAsOne() throws Exception {
        String key = Fakes.awsAccessKeyId();
        String messages = JSON.writeValueAsString(JSON.readTree("[{\"role\": \"user\", \"parts\": [{\"type\": \"text\","
                + " \"content\": \"my key is " + key + ", is it valid?\"}]}]"));
        String attributes = JSON.writeValueAsString(JSON.createObjectNode()
                .put("gen_ai.input.messages", messages).put("gen_ai.request.model", "gpt-4o"));

        String redacted = redaction.redact(attributes);

        assertThat(redacted).doesNotContain(key);
        JsonNode inner = JSON.readTree(JSON.readTree(redacted).get("gen_ai.input.messages").textValue());
        assertThat(inner.at("/0/parts/0/content").textValue())
                .isEqualTo("my key is [REDACTED:aws-access-key-id], is it valid?");
        assertThat(JSON.readTree(redacted).get("gen_ai.request.model").textValue()).isEqualTo("gpt-4o");
    }

    @Test
    void escapesAroundASecretSurviveAsEscapes() throws Exception {
        String key = Fakes.githubToken("p");
        String document = "{\"cmd\": \"echo \\\"" + key + "\\\" > ~/.token\\n\\tdone\"}";

        String redacted = redaction.redact(document);

        assertThat(JSON.readTree(redacted).get("cmd").textValue())
                .isEqualTo("echo \"[REDACTED:github-token]\" > ~/.token\n\tdone");
    }

    @Test
    void aDocumentWithoutSecretsIsReturnedToTheCharacter() {
        String document = "{ \"b\" : 1.50, \"a\":[1e3, \"x\", {\"token\": \"no\"}],\n \"c\": null }";

        assertThat(redaction.redact(document)).isSameAs(document);
    }

    @Test
    void aRedactedDocumentKeepsItsKeyOrderAndExactNumbers() {
        String redacted = redaction.redact("{\"z\": 1.50, \"password\": \"hunter2\", \"a\": 12345678901234567890}");

        assertThat(redacted).isEqualTo("{\"z\":1.50,\"password\":\"[REDACTED:password]\",\"a\":12345678901234567890}");
    }

    @Test
    void secretsInArraysAreRedacted() {
        String jwt = Fakes.jwt();

        assertThat(redaction.redact("[\"" + jwt + "\", 2, [\"ok\"]]")).isEqualTo("[\"[REDACTED:jwt]\",2,[\"ok\"]]");
    }

    @Test
    void textThatIsNotJsonIsScrubbedAsText() {
        String key = Fakes.awsAccessKeyId();

        assertThat(redaction.redact("[draft] key " + key + " {unbalanced"))
                .isEqualTo("[draft] key [REDACTED:aws-access-key-id] {unbalanced");
        assertThat(redaction.redact("[1, 2] then " + key)).isEqualTo("[1, 2] then [REDACTED:aws-access-key-id]");
    }

    @Test
    void redactingTwiceChangesNothingMore() {
        String once = redaction.redact("{\"headers\": {\"Authorization\": \"Basic " + Fakes.token("dXNlcj", 20)
                + "\"}, \"password\": \"hunter2\"}");

        assertThat(redaction.redact(once)).isEqualTo(once);
    }

    @Test
    void nullAndEmptyStayAsTheyAre() {
        assertThat(redaction.redact(null)).isNull();
        assertThat(redaction.redact("")).isEmpty();
    }
}
