package dev.hindsight.platform.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.hindsight.platform.json.UnstorableValueException;
import dev.hindsight.platform.problem.Problem.FieldError;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a producer is told when Jackson could not read or bind its JSON: the field, and what is wrong with it. One
 * wording wherever a body is read (a whole body bound by the REST layer, or a batch item read on its own), so the same
 * mistake gets the same error from every endpoint.
 */
public final class BindingErrors {

    private BindingErrors() {
    }

    /** The 400 for a body that could not be read. */
    public static Problem unreadable(JsonProcessingException e) {
        return Problem.of(400, "Invalid request", "The request body could not be read", List.of(of(e)));
    }

    /** The field {@code e} names (a path such as {@code messages[2].role}, or {@code $}) and what is wrong there. */
    public static FieldError of(JsonProcessingException e) {
        String field = e instanceof JsonMappingException m ? FieldPaths.of(m.getPath()) : "$";
        return new FieldError(field, message(e));
    }

    private static String message(JsonProcessingException e) {
        if (e instanceof UnstorableValueException u) {
            return u.reason();
        }
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown field '" + u.getPropertyName() + "'";
        }
        if (e instanceof InvalidFormatException f && f.getTargetType() != null && f.getTargetType().isEnum()) {
            return "must be one of " + Arrays.stream(f.getTargetType().getEnumConstants()).map(String::valueOf)
                    .collect(Collectors.joining(", ")) + "; got " + describe(f.getValue());
        }
        if (e instanceof InvalidFormatException f && f.getTargetType() != null) {
            return "cannot read " + describe(f.getValue()) + " as " + f.getTargetType().getSimpleName();
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return "expected " + m.getTargetType().getSimpleName();
        }
        if (e instanceof InputCoercionException c && c.getTargetType() != null) {
            Class<?> type = c.getTargetType();
            return type == int.class || type == Integer.class ? "out of range for a 32-bit integer"
                    : type == long.class || type == Long.class ? "out of range for a 64-bit integer"
                    : "out of range for " + type.getSimpleName();
        }
        if (e instanceof JsonMappingException) {
            return "wrong type: " + e.getOriginalMessage();
        }
        return "malformed JSON: " + e.getOriginalMessage();
    }

    private static String describe(Object value) {
        String text = String.valueOf(value);
        return "'" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'";
    }
}
