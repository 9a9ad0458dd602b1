package dev.hindsight.ingest.request;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.hindsight.platform.problem.BindingErrors;
import dev.hindsight.platform.problem.FieldPaths;
import dev.hindsight.platform.problem.Problem.FieldError;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Binds a JSON tree to a request type and validates it, naming every problem by its path under a prefix
 * ({@code items[3].payload.message_id}). Every JSON body ingest takes is read here: whole bodies through
 * {@link JsonBodyReader}, and seed envelopes and batch items by their resources, so a mistake gets the same error from
 * every endpoint.
 */
@ApplicationScoped
public class RequestReader {

    private static final PropertyNamingStrategies.NamingBase SNAKE_CASE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    private final ObjectMapper json;
    private final Validator validator;

    public RequestReader(ObjectMapper json, Validator validator) {
        this.json = json;
        this.validator = validator;
    }

    /** The bound request, or null when {@code errors} received the reasons. */
    public <T> T read(JsonNode node, Class<T> type, String prefix, List<FieldError> errors) {
        if (node == null || !node.isObject()) {
            errors.add(new FieldError(prefix.isEmpty() ? "$" : prefix, "must be an object"));
            return null;
        }
        T value;
        try {
            value = json.treeToValue(node, type);
        } catch (JsonProcessingException e) {
            errors.add(bindingError(e, prefix));
            return null;
        }
        return validated(value, type, prefix, errors);
    }

    /**
     * The request bound straight from {@code parser}, positioned on the value's first token, without building a tree
     * of it first; or null when {@code errors} received the reasons. Either way the parser is left on the value's last
     * token, so the caller reads on after it. Malformed JSON (which Jackson reports wrapped in a binding error) is
     * thrown as it is: the whole body is unreadable, not this value.
     */
    public <T> T read(JsonParser parser, Class<T> type, String prefix, List<FieldError> errors) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            errors.add(new FieldError(prefix.isEmpty() ? "$" : prefix, "must be an object"));
            parser.skipChildren();
            return null;
        }
        JsonStreamContext around = parser.getParsingContext().getParent();
        T value;
        try {
            value = json.readValue(parser, type);
        } catch (JsonMappingException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof JsonProcessingException unreadable && !(cause instanceof JsonMappingException)
                        && !(cause instanceof InputCoercionException)) {
                    throw unreadable;
                }
            }
            errors.add(bindingError(e, prefix));
            // Binding stopped somewhere inside the value: read on to its end (the context around it again).
            while (parser.getParsingContext() != around) {
                if (parser.nextToken() == null) {
                    throw new JsonEOFException(parser, null, "Unexpected end of input inside " + prefix);
                }
            }
            return null;
        }
        return validated(value, type, prefix, errors);
    }

    /**
     * An open object read field by field into the record {@code type}: each field the record names is bound on its
     * own, so every mistyped field is named at once (binding a whole object stops at the first), then the record's
     * constraints are checked. Fields the record does not name are left to the caller ({@link #fieldNames}). The
     * record, or null when {@code errors} received the reasons; an absent {@code node} reads as an empty object.
     */
    public <T extends Record> T readFields(JsonNode node, Class<T> type, String prefix, List<FieldError> errors) {
        if (node != null && !node.isNull() && !node.isObject()) {
            errors.add(new FieldError(prefix.isEmpty() ? "$" : prefix, "must be an object"));
            return null;
        }
        RecordShape shape = SHAPES.get(type);
        Object[] values = new Object[shape.types().length];
        int before = errors.size();
        for (int i = 0; i < values.length; i++) {
            JsonNode value = node == null ? null : node.get(shape.names().get(i));
            if (value == null || value.isNull()) {
                continue;
            }
            try {
                values[i] = json.treeToValue(value, shape.types()[i]);
            } catch (JsonProcessingException e) {
                errors.add(new FieldError(join(prefix, shape.names().get(i)), BindingErrors.of(e).message()));
            }
        }
        if (errors.size() > before) {
            return null;
        }
        T value;
        try {
            value = type.cast(shape.canonical().newInstance(values));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot construct " + type.getName(), e);
        }
        return validated(value, type, prefix, errors);
    }

    /** The JSON names of the record {@code type}'s fields, as the wire spells them. */
    public static Set<String> fieldNames(Class<? extends Record> type) {
        return SHAPES.get(type).nameSet();
    }

    /** A record's fields as the wire names them, their types and its canonical constructor: looked up once a type. */
    private record RecordShape(List<String> names, Set<String> nameSet, Class<?>[] types, Constructor<?> canonical) {

        static RecordShape of(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            List<String> names = new ArrayList<>();
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                names.add(SNAKE_CASE.translate(components[i].getName()));
                types[i] = components[i].getType();
            }
            try {
                Constructor<?> canonical = type.getDeclaredConstructor(types);
                canonical.setAccessible(true);
                return new RecordShape(List.copyOf(names), Set.copyOf(names), types, canonical);
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(type.getName() + " has no canonical constructor", e);
            }
        }
    }

    private static final ClassValue<RecordShape> SHAPES = new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
            return RecordShape.of(type);
        }
    };

    /** What a binding failure says (as every endpoint says it, {@link BindingErrors}), under {@code prefix}. */
    private static FieldError bindingError(JsonProcessingException e, String prefix) {
        FieldError error = BindingErrors.of(e);
        return new FieldError(join(prefix, error.field().equals("$") ? "" : error.field()), error.message());
    }

    private <T> T validated(T value, Class<T> type, String prefix, List<FieldError> errors) {
        List<FieldError> found = violations(value, type);
        if (found.isEmpty()) {
            return value;
        }
        for (int i = 0; i < found.size(); i++) {
            String field = found.get(i).field();
            found.set(i, new FieldError(join(prefix, field.equals("$") ? "" : field), found.get(i).message()));
        }
        found.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
        errors.addAll(found);
        return null;
    }

    /**
     * Every constraint violation of {@code value}: by its compiled validator where {@code type} has one (the same
     * errors at a fraction of the cost, {@link CompiledValidator}), else by Bean Validation.
     */
    <T> List<FieldError> violations(T value, Class<T> type) {
        Optional<CompiledValidator<T>> compiled = CompiledValidator.of(type);
        if (compiled.isPresent()) {
            return compiled.get().validate(value);
        }
        List<FieldError> found = new ArrayList<>();
        for (ConstraintViolation<T> violation : validator.validate(value)) {
            found.add(new FieldError(FieldPaths.of(violation), violation.getMessage()));
        }
        return found;
    }

    /** {@code a} + {@code .b} or {@code [2]}; either side may be empty. */
    public static String join(String prefix, String field) {
        if (prefix.isEmpty()) {
            return field.isEmpty() ? "$" : field;
        }
        if (field.isEmpty()) {
            return prefix;
        }
        return field.startsWith("[") ? prefix + field : prefix + "." + field;
    }
}
