package dev.hindsight.query.readmodel;

import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

/**
 * A read answer as bytes of JSON, with its entity tag (a digest of those bytes) and the sessions it shows: what the
 * cache keeps and what every cached endpoint writes, so a dashboard can revalidate with {@code If-None-Match} and get
 * 304 while nothing changed.
 */
public record Rendered(byte[] body, EntityTag etag, int generation, Set<String> sessions, byte[] gzipped) {

    public static Rendered of(byte[] body, int generation, Set<String> sessions) {
        return new Rendered(body, tag(body), generation, Collections.unmodifiableSet(sessions), null);
    }

    /**
     * A console page: kept compressed as well, so that a page read many times is compressed once rather than on every
     * read (the markup of a session page of hundreds of messages is repetitive and compresses well).
     */
    public static Rendered page(byte[] html, int generation, Set<String> sessions) {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream(html.length / 4 + 64);
        // gzip's default level: smaller than its fastest for a little more CPU, paid once per change, not per read.
        try (GZIPOutputStream gzip = new GZIPOutputStream(compressed, 8192)) {
            gzip.write(html);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Rendered(html, tag(html), generation, Collections.unmodifiableSet(sessions),
                compressed.toByteArray());
    }

    /** The bytes the cache accounts for. */
    public int weight() {
        return body.length + (gzipped == null ? 0 : gzipped.length);
    }

    /** A console page as HTML, compressed when the browser accepts gzip; never stored by caches on the way. */
    public Response respondHtml(String acceptEncoding) {
        boolean gzip = gzipped != null && acceptEncoding != null && acceptEncoding.toLowerCase(Locale.ROOT)
                .contains("gzip");
        Response.ResponseBuilder response = Response.ok(gzip ? gzipped : body, "text/html;charset=UTF-8")
                .header("Cache-Control", "no-store").header("Vary", "Accept-Encoding");
        return gzip ? response.header("Content-Encoding", "gzip").build() : response.build();
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
