package dev.hindsight.platform.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Comparator;
import java.util.List;

/**
 * An RFC 9457 problem detail, with {@code errors} listing every offending field so a producer can fix its request in
 * one round trip.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, String instance,
        List<FieldError> errors) {

    /** Media type of every error body. */
    public static final String MEDIA_TYPE = "application/problem+json";

    /** One field that failed validation: a JSON pointer-like path and what is wrong with it. */
    public record FieldError(String field, String message) {
    }

    public static Problem of(int status, String title, String detail) {
        return new Problem(typeFor(status), title, status, detail, null, List.of());
    }

    public static Problem of(int status, String title, String detail, List<FieldError> errors) {
        return new Problem(typeFor(status), title, status, detail, null, List.copyOf(errors));
    }

    /** The 400 for a request whose fields broke their constraints: every error, ordered by field, then message. */
    public static Problem invalid(List<FieldError> errors) {
        List<FieldError> sorted = errors.stream()
                .sorted(Comparator.comparing(FieldError::field).thenComparing(FieldError::message)).toList();
        return of(400, "Invalid request", sorted.size() + " field" + (sorted.size() == 1 ? " is" : "s are")
                + " invalid", sorted);
    }

    public Problem withInstance(String path) {
        return new Problem(type, title, status, detail, path, errors);
    }

    private static String typeFor(int status) {
        return switch (status) {
            case 400 -> "https://hindsight.dev/problems/invalid-request";
            case 401 -> "https://hindsight.dev/problems/unauthenticated";
            case 403 -> "https://hindsight.dev/problems/forbidden";
            case 404 -> "https://hindsight.dev/problems/not-found";
            case 409 -> "https://hindsight.dev/problems/conflict";
            case 413 -> "https://hindsight.dev/problems/payload-too-large";
            case 415 -> "https://hindsight.dev/problems/unsupported-media-type";
            case 503 -> "https://hindsight.dev/problems/unavailable";
            default -> "about:blank";
        };
    }
}
