package dev.hindsight.query.cache;

import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Collections;
import java.util.Set;

/**
 * A read answer as bytes of JSON, with its entity tag (a digest of those bytes) and the sessions it shows: what the
 * cache keeps and what every cached endpoint writes, so a dashboard can revalidate with {@code If-None-Match} and get
 * 304 while nothing changed.
 */
public record Rendered(byte[] body, EntityTag etag, int generation, Set<String> sessions) {

    public static Rendered of(byte[] body, int generation, Set<String> sessions) {
        return new Rendered(body, tag(body), generation, Collections.unmodifiableSet(sessions));
    }

    /** 304 when the request's preconditions name this answer's tag, otherwise 200 with the body. */
    public Response respond(Request request) {
        Response.ResponseBuilder notModified = request == null ? null : request.evaluatePreconditions(etag);
        if (notModified != null) {
            return notModified.header("Cache-Control", "no-cache").build();
        }
        return Response.ok(body, MediaType.APPLICATION_JSON_TYPE).tag(etag).header("Cache-Control", "no-cache").build();
    }

    private static EntityTag tag(byte[] body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
            return new EntityTag(Base64.getUrlEncoder().withoutPadding().encodeToString(
                    java.util.Arrays.copyOf(digest, 16)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
