package dev.hindsight.platform.problem;

import com.fasterxml.jackson.databind.JsonMappingException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import java.util.List;

/** Names offending fields the way the producer wrote them: snake_case JSON paths such as {@code messages[2].role}. */
public final class FieldPaths {

    private FieldPaths() {
    }

    /** Path of a Jackson binding failure, e.g. {@code trading.date}. */
    public static String of(List<JsonMappingException.Reference> path) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference ref : path) {
            if (ref.getFieldName() != null) {
                if (!out.isEmpty()) {
                    out.append('.');
                }
                out.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                out.append('[').append(ref.getIndex()).append(']');
            }
        }
        return out.isEmpty() ? "$" : out.toString();
    }

    /**
     * Path of a Bean Validation failure on a request body, without the method and parameter names Java puts in front.
     */
    public static String of(ConstraintViolation<?> violation) {
        StringBuilder out = new StringBuilder();
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getKind() == ElementKind.METHOD || node.getKind() == ElementKind.PARAMETER
                    || node.getKind() == ElementKind.CROSS_PARAMETER || node.getKind() == ElementKind.RETURN_VALUE) {
                continue;
            }
            if (node.isInIterable() && node.getIndex() != null && !out.isEmpty()) {
                out.append('[').append(node.getIndex()).append(']');
            }
            if (node.getName() != null && !node.getName().startsWith("<")) {
                if (!out.isEmpty()) {
                    out.append('.');
                }
                out.append(snakeCase(node.getName()));
            }
        }
        return out.isEmpty() ? "$" : out.toString();
    }

    /** {@code messageIndex} becomes {@code message_index}; names already in snake_case stay as they are. */
    public static String snakeCase(String name) {
        StringBuilder out = new StringBuilder(name.length() + 4);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0) {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
