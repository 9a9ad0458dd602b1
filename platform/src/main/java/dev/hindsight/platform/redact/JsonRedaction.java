package dev.hindsight.platform.redact;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Secrets redacted among the values of a JSON document, never by a pattern over its serialised text (which would
 * break its escaping): the document is parsed, each string value is scrubbed as text, a string value that is itself a
 * JSON document (an OpenTelemetry attribute holding {@code gen_ai.input.messages}) is redacted as one, and a value
 * whose key names a credential ({@code Authorization}, {@code x-api-key}, {@code password}, {@code client_secret},
 * ...) is judged as the value of that key ({@code "Authorization": "Bearer abc…"} keeps {@code Bearer}, loses the
 * token). A document in which nothing was redacted is returned as it was given, to the character; one that changed
 * is written again with its keys in their order and its numbers exact. Text that is not JSON is scrubbed as text.
 */
public final class JsonRedaction {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    /** Key names whose value is judged as that key's (a cheap filter before the scrubber's assignment rules). */
    private static final Pattern CREDENTIAL_KEY = Pattern.compile(
            "(?i).{0,40}(?:authorization|api[_-]?key|secret|token|password|passwd|credential|cookie)(?:[_-]?key)?");

    private final SecretScrubber scrubber;

    public JsonRedaction(SecretScrubber scrubber) {
        this.scrubber = scrubber;
    }

    /**
     * {@code text} with its secrets redacted: as a JSON document when it is one (an object or an array), else as free
     * text. Null stays null.
     */
    public String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        JsonNode document = parse(text);
        if (document == null) {
            return scrubber.scrub(text);
        }
        return redactValues(document) ? write(document) : text;
    }

    /** Redacts the string values of {@code node} in place; true when something changed. */
    public boolean redactValues(JsonNode node) {
        boolean changed = false;
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonNode value = field.getValue();
                if (value.isTextual()) {
                    String redacted = value(field.getKey(), value.textValue());
                    if (!redacted.equals(value.textValue())) {
                        field.setValue(TextNode.valueOf(redacted));
                        changed = true;
                    }
                } else {
                    changed |= redactValues(value);
                }
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                JsonNode element = array.get(i);
                if (element.isTextual()) {
                    String redacted = value(null, element.textValue());
                    if (!redacted.equals(element.textValue())) {
                        array.set(i, TextNode.valueOf(redacted));
                        changed = true;
                    }
                } else {
                    changed |= redactValues(element);
                }
            }
        }
        return changed;
    }

    /** One string value, under {@code key} (null in an array). */
    private String value(String key, String text) {
        if (text.isEmpty()) {
            return text;
        }
        JsonNode nested = looksLikeJson(text) ? parse(text) : null;
        if (nested != null) {
            return redactValues(nested) ? write(nested) : text;
        }
        String scrubbed = scrubber.scrub(text);
        if (!scrubbed.equals(text) || key == null || !CREDENTIAL_KEY.matcher(key).matches()) {
            return scrubbed;
        }
        return underKey(key, text);
    }

    /**
     * The value as the scrubber judges it when written as the value of its key: {@code Authorization: Bearer …},
     * {@code password: "…"}. Quoted where it can be, so that the scrubber's rules for quoted values apply (a JSON string
     * is a literal, never code or prose).
     */
    private String underKey(String key, String value) {
        boolean quotable = value.indexOf('"') < 0 && value.indexOf('\n') < 0 && value.indexOf('\r') < 0;
        String prefix = key.toLowerCase(Locale.ROOT).contains("authorization") || !quotable ? key + ": "
                : key + ": \"";
        String suffix = prefix.endsWith("\"") ? "\"" : "";
        String judged = scrubber.scrub(prefix + value + suffix);
        if (judged.startsWith(prefix) && judged.endsWith(suffix)
                && judged.length() >= prefix.length() + suffix.length()) {
            return judged.substring(prefix.length(), judged.length() - suffix.length());
        }
        return value;
    }

    private static boolean looksLikeJson(String text) {
        char first = firstNonBlank(text);
        return first == '{' || first == '[';
    }

    private static char firstNonBlank(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c)) {
                return c;
            }
        }
        return 0;
    }

    private static JsonNode parse(String text) {
        if (!looksLikeJson(text)) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(text);
            return node != null && node.isContainerNode() ? node : null;
        } catch (JsonProcessingException notJson) {
            return null;
        }
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed JSON tree could not be written again", e);
        }
    }
}
