package dev.hindsight.platform.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.hindsight.platform.auth.FailedAuthentications;
import dev.hindsight.platform.redact.Redactor;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place where exceptions become RFC 9457 problem+json responses, for every service. No exception reaches a
 * producer as an HTML page or a bare 500.
 */
class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response problem(ProblemException e, UriInfo uri) {
        Response.ResponseBuilder response = respond(e.problem().withInstance(uri.getPath()));
        e.headers().forEach(response::header);
        return response.build();
    }

    @ServerExceptionMapper
    public Response invalid(ConstraintViolationException e, UriInfo uri) {
        return respond(Problem.invalid(e.getConstraintViolations().stream()
                .map(v -> new Problem.FieldError(FieldPaths.of(v), v.getMessage())).toList())
                .withInstance(uri.getPath())).build();
    }

    // Listed one by one: Quarkus ships a mapper for MismatchedInputException that would win over a broader type.
    @ServerExceptionMapper({JsonProcessingException.class, JsonMappingException.class, MismatchedInputException.class,
            InvalidFormatException.class, UnrecognizedPropertyException.class})
    public Response unreadable(JsonProcessingException e, UriInfo uri) {
        return respond(BindingErrors.unreadable(e).withInstance(uri.getPath())).build();
    }

    @ServerExceptionMapper({UnauthorizedException.class, AuthenticationFailedException.class})
    public Response unauthenticated(RuntimeException e, UriInfo uri) {
        Object wait = e instanceof AuthenticationFailedException failed
                ? failed.getAttribute(FailedAuthentications.RETRY_AFTER) : null;
        if (wait != null) {
            return respond(Problem.of(429, "Too many requests", "Too many failed authentications from this "
                    + "address; retry after " + wait + " s").withInstance(uri.getPath()))
                    .header("Retry-After", wait.toString()).build();
        }
        return respond(Problem.of(401, "Unauthenticated",
                "Send a valid API key as 'Authorization: Bearer <key>'").withInstance(uri.getPath()))
                .header("WWW-Authenticate", "Bearer realm=\"hindsight\"").build();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e, UriInfo uri) {
        return respond(Problem.of(403, "Forbidden", "This API key lacks the scope this operation needs")
                .withInstance(uri.getPath())).build();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, UriInfo uri) {
        if (e.getCause() instanceof JsonProcessingException unreadable) {
            // Quarkus REST wraps a body Jackson could not bind (other than a mismatched input) in a bare 400: answer
            // with what Jackson said, and where.
            return unreadable(unreadable, uri);
        }
        Response original = e.getResponse();
        int status = original.getStatus();
        Response.ResponseBuilder response = respond(Problem.of(status,
                Response.Status.fromStatusCode(status) == null ? "Error"
                        : Response.Status.fromStatusCode(status).getReasonPhrase(),
                e.getMessage()).withInstance(uri.getPath()));
        original.getStringHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Type") && !name.equalsIgnoreCase("Content-Length")) {
                values.forEach(v -> response.header(name, v));
            }
        });
        return response.build();
    }

    @ServerExceptionMapper
    public Response unexpected(Exception e, UriInfo uri) {
        String incident = UUID.randomUUID().toString();
        LOG.errorf(Redactor.operational(e), "Unexpected failure on %s (incident %s)", uri.getPath(), incident);
        return respond(Problem.of(500, "Internal error",
                "An unexpected error occurred; quote incident " + incident + " when reporting it")
                .withInstance(uri.getPath())).build();
    }

    private static Response.ResponseBuilder respond(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem);
    }
}
