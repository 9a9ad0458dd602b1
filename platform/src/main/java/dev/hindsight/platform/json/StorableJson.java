package dev.hindsight.platform.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.deser.std.JsonNodeDeserializer;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * Jackson deserializers that refuse, while a request is read, every value {@link StorableText} says cannot be stored
 * as sent: strings, field names and map keys, and every string, field name and number inside free-form JSON (tool
 * arguments, trace payloads, whole trees read with {@code readTree}). The refusal is an
 * {@link UnstorableValueException} carrying the value's path, so every reader of request bodies (the REST layer,
 * batch items, seed envelopes) answers with the same precise error.
 */
final class StorableJson {

    private StorableJson() {
    }

    /** The module, registered on every service's {@code ObjectMapper} by {@link StorableJsonCustomizer}. */
    public static Module module() {
        SimpleModule module = new SimpleModule("hindsight-storable-json");
        module.addDeserializer(String.class, new Strings());
        module.addDeserializer(Double.class, new Doubles(Double.class));
        module.addDeserializer(Double.TYPE, new Doubles(Double.TYPE));
        module.addKeyDeserializer(String.class, new Keys());
        module.addDeserializer(java.time.OffsetDateTime.class, new Times<>(java.time.OffsetDateTime.class,
                com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer.OFFSET_DATE_TIME));
        module.addDeserializer(java.time.Instant.class, new Times<>(java.time.Instant.class,
                com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer.INSTANT));
        module.addDeserializer(java.time.LocalDate.class, new Times<>(java.time.LocalDate.class,
                com.fasterxml.jackson.datatype.jsr310.deser.LocalDateDeserializer.INSTANCE));
        module.addDeserializer(JsonNode.class, new Trees<>(JsonNode.class));
        module.addDeserializer(ObjectNode.class, new Trees<>(ObjectNode.class));
        module.addDeserializer(ArrayNode.class, new Trees<>(ArrayNode.class));
        return module;
    }

    /**
     * A time or a date as ISO-8601 text only: Jackson's own reading would take a number as seconds (or milliseconds,
     * or days) since 1970, which the published documents do not allow (a string of format date-time or date).
     */
    static final class Times<T> extends StdDeserializer<T> {

        private final JsonDeserializer<T> standard;

        Times(Class<T> type, JsonDeserializer<T> standard) {
            super(type);
            this.standard = standard;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.currentToken() != null && parser.currentToken().isNumeric()) {
                return (T) context.handleUnexpectedToken(handledType(), parser);
            }
            if (parser.currentToken() == com.fasterxml.jackson.core.JsonToken.VALUE_STRING
                    && parser.getText().isBlank()) {
                // Jackson would read "" as no time at all; a field that is absent is sent as absent or null.
                return (T) context.handleWeirdStringValue(handledType(), parser.getText(),
                        "an ISO-8601 time or date, not blank text");
            }
            return standard.deserialize(parser, context);
        }
    }

    /**
     * Jackson's own string reading, then the check. A number or a boolean where text is expected is refused, not
     * turned into its text: the published OpenAPI documents say these fields are strings, and a client that sends
     * {@code 42} for a label should hear so rather than find {@code "42"} stored.
     */
    static final class Strings extends StringDeserializer {

        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.currentToken() != null && parser.currentToken().isScalarValue()
                    && parser.currentToken() != com.fasterxml.jackson.core.JsonToken.VALUE_STRING
                    && parser.currentToken() != com.fasterxml.jackson.core.JsonToken.VALUE_NULL) {
                return (String) context.handleUnexpectedToken(String.class, parser);
            }
            String text = super.deserialize(parser, context);
            String problem = StorableText.problem(text);
            if (problem != null) {
                throw new UnstorableValueException(parser, problem);
            }
            return text;
        }
    }

    /**
     * Jackson's own reading of a typed double ({@code price}), then the check: {@code 1e400} and the strings
     * {@code "Infinity"} and {@code "NaN"}, which Jackson would read as such, are refused.
     */
    static final class Doubles extends StdDeserializer<Double> {

        private final JsonDeserializer<?> standard;

        Doubles(Class<Double> type) {
            super(type);
            this.standard = NumberDeserializers.find(type, type.getName());
        }

        @Override
        public Double deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            Double value = (Double) standard.deserialize(parser, context);
            String problem = value == null ? null : StorableText.problem(value);
            if (problem != null) {
                throw new UnstorableValueException(parser, problem);
            }
            return value;
        }

        @Override
        public Double getNullValue(DeserializationContext context) throws
                com.fasterxml.jackson.databind.JsonMappingException {
            return (Double) standard.getNullValue(context);
        }
    }

    /** Map keys ({@code labels}): the key is the field name the producer wrote. */
    static final class Keys extends KeyDeserializer {

        @Override
        public Object deserializeKey(String key, DeserializationContext context) throws IOException {
            String problem = StorableText.problem(key);
            if (problem != null) {
                throw new UnstorableValueException(context.getParser(), "the field name " + problem);
            }
            return key;
        }
    }

    /** Jackson's own tree reading, then a walk of the tree. */
    static final class Trees<T extends JsonNode> extends StdDeserializer<T> {

        private final JsonDeserializer<? extends JsonNode> standard;

        Trees(Class<T> type) {
            super(type);
            this.standard = JsonNodeDeserializer.getDeserializer(type);
        }

        @Override
        @SuppressWarnings("unchecked")
        public T deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            T tree = (T) standard.deserialize(parser, context);
            UnstorableValueException problem = find(tree, parser);
            if (problem != null) {
                throw problem;
            }
            return tree;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T getNullValue(DeserializationContext context) throws com.fasterxml.jackson.databind.JsonMappingException {
            return (T) standard.getNullValue(context);
        }

        @Override
        public Object getAbsentValue(DeserializationContext context) throws
                com.fasterxml.jackson.databind.JsonMappingException {
            return standard.getAbsentValue(context);
        }

        @Override
        public Boolean supportsUpdate(com.fasterxml.jackson.databind.DeserializationConfig config) {
            return standard.supportsUpdate(config);
        }
    }

    /** The first unstorable value in {@code node}, with its path inside the tree; null when there is none. */
    static UnstorableValueException find(JsonNode node, JsonParser parser) {
        if (node.isTextual()) {
            String problem = StorableText.problem(node.textValue());
            return problem == null ? null : new UnstorableValueException(parser, problem);
        }
        if (node.isDouble() || node.isFloat()) {
            String problem = StorableText.problem(node.doubleValue());
            return problem == null ? null : new UnstorableValueException(parser, problem);
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                String problem = StorableText.problem(field.getKey());
                UnstorableValueException found = problem != null
                        ? new UnstorableValueException(parser, "the field name " + problem)
                        : find(field.getValue(), parser);
                if (found != null) {
                    found.prependPath(node, field.getKey());
                    return found;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                UnstorableValueException found = find(node.get(i), parser);
                if (found != null) {
                    found.prependPath(node, i);
                    return found;
                }
            }
        }
        return null;
    }
}
