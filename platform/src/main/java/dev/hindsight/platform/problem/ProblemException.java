package dev.hindsight.platform.problem;

import java.util.List;
import java.util.Map;

/** Thrown by services to answer with a specific problem; mapped to problem+json by {@link ProblemMappers}. */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;
    private final transient Map<String, String> headers;

    public ProblemException(Problem problem) {
        this(problem, Map.of());
    }

    public ProblemException(Problem problem, Map<String, String> headers) {
        super(problem.detail());
        this.problem = problem;
        this.headers = Map.copyOf(headers);
    }

    public static ProblemException badRequest(String detail, List<Problem.FieldError> errors) {
        return new ProblemException(Problem.of(400, "Invalid request", detail, errors));
    }

    public static ProblemException notFound(String detail) {
        return new ProblemException(Problem.of(404, "Not found", detail));
    }

    public static ProblemException conflict(String detail) {
        return new ProblemException(Problem.of(409, "Conflict", detail));
    }

    public Problem problem() {
        return problem;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
