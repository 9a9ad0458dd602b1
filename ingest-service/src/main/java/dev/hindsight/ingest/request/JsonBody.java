package dev.hindsight.ingest.request;

/**
 * A request record that a JAX-RS resource takes as its whole body: {@link JsonBodyReader} reads it through
 * {@link RequestReader}, as batch items of the same type are read, instead of the REST layer's own binding and Bean
 * Validation.
 */
public interface JsonBody {
}
