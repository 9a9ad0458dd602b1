package dev.hindsight.platform.problem;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * What every service's OpenAPI document says beyond what annotations say, so that it describes the wire exactly
 * (ADR 0013). An optional property of a request or answer (not {@code required}) may be absent or {@code null}, as
 * Jackson reads and writes it, so it is nullable. And the error answers every endpoint can give are listed, as
 * problem+json with the {@link Problem} schema: 400 where it takes parameters or a body, 401 (no or unknown key) and
 * 403 (a scope missing) on the API, 404 where a path names something, 413 and 415 where it takes a body, 429 (a tenant
 * over its quota, or a source that failed to authenticate too often). An endpoint's own description of a status is
 * kept; one without a body gets the problem body. The {@code ApiKey} security scheme the operations refer to is defined:
 * HTTP Bearer. Quarkus's own endpoints (under {@code /q/}) are left as they are.
 */
public class PublishedDocument implements OASFilter {

    private static final String SCHEMA = "Problem";
    /** The security scheme operations that need a key refer to (quarkus.smallrye-openapi.security-scheme-name). */
    private static final String API_KEY = "ApiKey";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        openAPI.getComponents().addSchema(SCHEMA, problemSchema());
        openAPI.getComponents().addSecurityScheme(API_KEY, OASFactory.createSecurityScheme()
                .type(SecurityScheme.Type.HTTP).scheme("bearer")
                .description("An API key of the tenant, sent as Authorization: Bearer <key>; its scopes (ingest, "
                        + "read, admin) decide what it may do"));
        if (openAPI.getComponents().getSchemas() != null) {
            Map<String, Schema> schemas = openAPI.getComponents().getSchemas();
            schemas.values().forEach(schema -> optionalMayBeNull(schema, schemas));
        }
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            if (path.getKey().startsWith("/q/")) {
                continue;
            }
            for (Map.Entry<PathItem.HttpMethod, Operation> entry : path.getValue().getOperations().entrySet()) {
                describe(path.getKey(), entry.getValue());
            }
        }
    }

    private static void optionalMayBeNull(Schema schema, Map<String, Schema> schemas) {
        if (schema.getProperties() == null) {
            return;
        }
        List<String> required = schema.getRequired() == null ? List.of() : schema.getRequired();
        schema.getProperties().forEach((name, property) -> {
            // An object written out in place (not a reference) has optional properties of its own.
            optionalMayBeNull(property, schemas);
            // "null" among its types: what OpenAPI 3.0's nullable says when the document is written as 3.0.
            List<Schema.SchemaType> types = property.getType();
            if (required.contains(name)) {
                return;
            }
            if (property.getRef() != null) {
                // nullable cannot stand beside a reference in OpenAPI 3.0 (nor reach into an allOf): a reference to a
                // plain value (an enum, a date) is written out in place, null allowed; one to an object stays.
                Schema referenced = schemas.get(property.getRef().substring(property.getRef().lastIndexOf('/') + 1));
                if (referenced == null || referenced.getType() == null || referenced.getType().isEmpty()
                        || referenced.getType().contains(Schema.SchemaType.OBJECT)
                        || referenced.getType().contains(Schema.SchemaType.ARRAY)) {
                    return;
                }
                List<Schema.SchemaType> nullable = new java.util.ArrayList<>(referenced.getType());
                nullable.add(Schema.SchemaType.NULL);
                property.setRef(null);
                property.setType(nullable);
                property.setFormat(referenced.getFormat());
                if (referenced.getEnumeration() != null) {
                    List<Object> values = new java.util.ArrayList<>(referenced.getEnumeration());
                    values.add(null);
                    property.setEnumeration(values);
                }
                if (property.getDescription() == null) {
                    property.setDescription(referenced.getDescription());
                }
            } else if (types != null && !types.isEmpty() && !types.contains(Schema.SchemaType.NULL)) {
                List<Schema.SchemaType> nullable = new java.util.ArrayList<>(types);
                nullable.add(Schema.SchemaType.NULL);
                property.setType(nullable);
            }
        });
    }

    private static void describe(String path, Operation operation) {
        if (operation.getResponses() == null) {
            operation.setResponses(OASFactory.createAPIResponses());
        }
        APIResponses responses = operation.getResponses();
        boolean body = operation.getRequestBody() != null;
        boolean parameters = operation.getParameters() != null && !operation.getParameters().isEmpty();
        if (body || parameters) {
            problem(responses, "400", "Invalid request: every offending field is listed in errors");
        }
        problem(responses, "401", "No or unknown API key (WWW-Authenticate: Bearer)");
        problem(responses, "403", "The API key lacks the scope this operation needs");
        if (path.contains("{")) {
            problem(responses, "404", "Nothing of this tenant has that id");
        }
        if (body) {
            problem(responses, "413", "The body is larger than accepted");
            problem(responses, "415", "The body's media type or encoding is not accepted");
        }
        problem(responses, "429", "Over the tenant's quota or too many failed authentications; retry after "
                + "Retry-After seconds");
        for (APIResponse response : responses.getAPIResponses().values()) {
            // A status an endpoint lists for itself without a body is answered with a problem body all the same; one
            // it lists as problem+json without a schema gets the Problem schema.
            if (response.getContent() == null && isError(responses, response)) {
                response.setContent(problemContent());
            } else if (response.getContent() != null && response.getContent().hasMediaType(Problem.MEDIA_TYPE)
                    && response.getContent().getMediaType(Problem.MEDIA_TYPE).getSchema() == null) {
                response.getContent().getMediaType(Problem.MEDIA_TYPE).setSchema(OASFactory.createSchema().ref(SCHEMA));
            }
        }
    }

    private static boolean isError(APIResponses responses, APIResponse response) {
        return responses.getAPIResponses().entrySet().stream().anyMatch(e -> e.getValue() == response
                && e.getKey().length() == 3 && (e.getKey().startsWith("4") || e.getKey().startsWith("5")));
    }

    private static void problem(APIResponses responses, String status, String description) {
        if (!responses.hasAPIResponse(status)) {
            responses.addAPIResponse(status, OASFactory.createAPIResponse().description(description)
                    .content(problemContent()));
        }
    }

    private static Content problemContent() {
        return OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE, OASFactory.createMediaType()
                .schema(OASFactory.createSchema().ref(SCHEMA)));
    }

    private static Schema problemSchema() {
        Schema error = OASFactory.createSchema().type(List.of(Schema.SchemaType.OBJECT))
                .addProperty("field", string()).addProperty("message", string());
        return OASFactory.createSchema().type(List.of(Schema.SchemaType.OBJECT))
                .description("An RFC 9457 problem detail")
                .addProperty("type", string()).addProperty("title", string())
                .addProperty("status", OASFactory.createSchema().type(List.of(Schema.SchemaType.INTEGER)))
                .addProperty("detail", string()).addProperty("instance", string())
                .addProperty("errors", OASFactory.createSchema().type(List.of(Schema.SchemaType.ARRAY)).items(error))
                .required(List.of("type", "title", "status"));
    }

    private static Schema string() {
        return OASFactory.createSchema().type(List.of(Schema.SchemaType.STRING));
    }
}
