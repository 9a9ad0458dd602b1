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
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every REST call a test makes to a Hindsight service (the application a Quarkus test runs, or a packaged service
 * started with {@link PackagedService}; not the registry or anything else), checked against the service's own
 * published OpenAPI document ({@code /q/openapi}):
 * the answer (status, media type, body) must be one the document describes for that operation, a call to a path or
 * method the document does not have fails, and a request that was accepted (2xx) must be one the document describes.
 * A request the service refused is not checked against the document: tests send invalid requests on purpose, and the
 * refusal itself is checked. Quarkus's own endpoints under {@code /q/}, query-service's console (the HTML pages at
 * {@code /} and under {@code /ui}, for people) and memory-service's MCP endpoint ({@code /mcp}, JSON-RPC held to the
 * MCP specification by its own tests) are not in the REST document and pass unchecked. The
 * document is read once per service (per base URL), when the first call reaches it; a document in which an operation
 * answers success with a body it does not describe (no schema) fails every call to that service, listing them. A
 * mismatch fails the call with an {@link AssertionError} listing what differs.
 */
final class OpenApiContract implements Filter {

    private static final OpenApiContract INSTANCE = new OpenApiContract();
    private final Map<String, OpenApiInteractionValidator> validators = new ConcurrentHashMap<>();
    private final Set<String> services = ConcurrentHashMap.newKeySet();

    private OpenApiContract() {
    }

    /** Holds calls to the service at {@code baseUrl} (scheme, host and port) to its document too. */
    public static void hold(String baseUrl) {
        URI uri = URI.create(baseUrl);
        INSTANCE.services.add(uri.getScheme() + "://" + uri.getAuthority());
    }

    /** Adds the check to every RestAssured call of this JVM (once). */
    public static synchronized void install() {
        if (!RestAssured.filters().contains(INSTANCE)) {
            RestAssured.filters(INSTANCE);
        }
    }

    private static boolean notApi(String path) {
        return path.startsWith("/q/") || path.equals("/") || path.equals("/ui") || path.startsWith("/ui/")
                || path.equals("/mcp") || path.startsWith("/mcp/");
    }

    /** The validator of the document at {@code url}, read once; the document itself is checked first. */
    private static OpenApiInteractionValidator validator(String url) {
        String document;
        try {
            // HTTP/1.1: the JDK client's default h2c upgrade is not what the services speak on plain HTTP.
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new AssertionError("No OpenAPI document at " + url + ": " + answer.statusCode());
            }
            document = answer.body();
        } catch (IOException e) {
            throw new AssertionError("No OpenAPI document at " + url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted reading " + url, e);
        }
        OpenAPI api = new OpenAPIV3Parser().readContents(document).getOpenAPI();
        if (api == null) {
            throw new AssertionError("Unreadable OpenAPI document at " + url);
        }
        List<String> undescribed = undescribedBodies(api);
        if (!undescribed.isEmpty()) {
            throw new AssertionError("The published OpenAPI document " + url + " does not describe these "
                    + "answers' bodies (give each a schema, or 204 when there is none):\n"
                    + String.join("\n", undescribed));
        }
        return OpenApiInteractionValidator.createForInlineApiSpecification(document).build();
    }

    /** Every success answer but 204 has a body: each operation must give it a media type with a schema. */
    static List<String> undescribedBodies(OpenAPI api) {
        List<String> undescribed = new ArrayList<>();
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            if (operation.getResponses() == null) {
                undescribed.add(method + " " + path + ": no responses");
                return;
            }
            operation.getResponses().forEach((status, answer) -> {
                if (status.startsWith("2") && !status.equals("204") && (answer.getContent() == null
                        || answer.getContent().isEmpty()
                        || answer.getContent().values().stream().anyMatch(media -> media.getSchema() == null))) {
                    undescribed.add(method + " " + path + " -> " + status);
                }
            });
        }));
        return undescribed;
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification expected,
            FilterContext context) {
        URI uri = URI.create(request.getURI());
        Response response = context.next(request, expected);
        String base = uri.getScheme() + "://" + uri.getAuthority();
        // The application under test of a Quarkus test is on RestAssured's port.
        if (notApi(uri.getPath()) || !(services.contains(base) || uri.getPort() == RestAssured.port)) {
            return response;
        }
        OpenApiInteractionValidator validator = validators.computeIfAbsent(base,
                service -> validator(service + "/q/openapi?format=json"));
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
