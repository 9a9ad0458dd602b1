package dev.hindsight.ingest.request;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.platform.problem.BindingErrors;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads every {@link JsonBody} request through {@link RequestReader}: one binding and one validator (the compiled
 * one) for whole bodies and for batch items, so the same mistake gets the same error, field for field, whichever
 * endpoint carried it. A body with binding or constraint errors is a 400 naming every one; malformed JSON is a 400
 * saying where it broke; an empty body reads as no body (the resource's {@code @NotNull} says whether that is allowed).
 * The REST layer hands a non-blocking endpoint's body to a reader only once it has arrived whole, so nothing here waits
 * on the network.
 */
@Provider
@Consumes(MediaType.APPLICATION_JSON)
class JsonBodyReader implements MessageBodyReader<JsonBody> {

    private final ObjectMapper json;
    private final RequestReader reader;

    public JsonBodyReader(ObjectMapper json, RequestReader reader) {
        this.json = json;
        this.reader = reader;
    }

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return JsonBody.class.isAssignableFrom(type);
    }

    @Override
    public JsonBody readFrom(Class<JsonBody> type, Type genericType, Annotation[] annotations, MediaType mediaType,
            MultivaluedMap<String, String> httpHeaders, InputStream entityStream) throws IOException {
        return read(type, entityStream);
    }

    private <T extends JsonBody> T read(Class<T> type, InputStream body) throws IOException {
        List<FieldError> errors = new ArrayList<>();
        T request;
        try (JsonParser parser = json.createParser(body)) {
            if (parser.nextToken() == null) {
                return null;
            }
            request = reader.read(parser, type, "", errors);
        } catch (JsonProcessingException e) {
            throw new ProblemException(BindingErrors.unreadable(e));
        }
        if (!errors.isEmpty()) {
            throw new ProblemException(Problem.invalid(errors));
        }
        return request;
    }
}
