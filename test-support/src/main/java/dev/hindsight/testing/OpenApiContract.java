package dev.hindsight.testing;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.report.SimpleValidationReportFormat;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.restassured.RestAssuredRequest;
import com.atlassian.oai.validator.restassured.RestAssuredResponse;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every REST call a test makes, checked against the service's own published OpenAPI document ({@code /q/openapi}):
 * the answer (status, media type, body) must be one the document describes for that operation, a call to a path or
 * method the document does not have fails, and a request that was accepted (2xx) must be one the document describes.
 * A request the service refused is not checked against the document: tests send invalid requests on purpose, and the
 * refusal itself is checked. Quarkus's own endpoints under {@code /q/} are not the API and pass unchecked. The
 * document is read once per service (per base URL), when the first call reaches it. A mismatch fails the call with an
 * {@link AssertionError} listing what differs.
 */
public final class OpenApiContract implements Filter {

    private static final OpenApiContract INSTANCE = new OpenApiContract();
    private final Map<String, OpenApiInteractionValidator> validators = new ConcurrentHashMap<>();

    private OpenApiContract() {
    }

    /** Adds the check to every RestAssured call of this JVM (once). */
    public static synchronized void install() {
        if (!RestAssured.filters().contains(INSTANCE)) {
            RestAssured.filters(INSTANCE);
        }
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification expected,
            FilterContext context) {
        URI uri = URI.create(request.getURI());
        Response response = context.next(request, expected);
        if (uri.getPath().startsWith("/q/")) {
            return response;
        }
        OpenApiInteractionValidator validator = validators.computeIfAbsent(uri.getScheme() + "://" + uri.getAuthority(),
                base -> OpenApiInteractionValidator.createForSpecificationUrl(base + "/q/openapi?format=json").build());
        Request sent = RestAssuredRequest.of(request);
        ValidationReport report = validator.validateResponse(uri.getPath(), sent.getMethod(),
                RestAssuredResponse.of(response));
        // A request the service refused is not held to the document (tests send invalid ones on purpose); nor is one
        // the validator cannot read as sent: a compressed body, or a percent-encoded path it would not match.
        if (response.statusCode() < 400 && request.getHeaders().getValue("Content-Encoding") == null
                && !request.getURI().contains("%")) {
            report = report.merge(validator.validateRequest(sent));
        }
        if (report.hasErrors()) {
            throw new AssertionError("The call does not match the published OpenAPI document: " + request.getMethod()
                    + " " + uri.getPath() + " -> " + response.statusCode() + "\n"
                    + SimpleValidationReportFormat.getInstance().apply(report));
        }
        return response;
    }
}
