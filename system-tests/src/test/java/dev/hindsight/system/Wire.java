package dev.hindsight.system;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;

/** HTTP with JSON for the system tests: requests written as a producer would, answers read as JSON trees. */
final class Wire {

    static final ObjectMapper JSON = new ObjectMapper();
    /** Writes every non-ASCII character as an escape: the only way to send a lone surrogate, as JSON allows. */
    private static final ObjectMapper ESCAPING = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String bearer;

    Wire(String bearer) {
        this.bearer = bearer;
    }

    /** An answer: its status and its body as JSON (missing when it was not JSON). */
    record Answer(int status, JsonNode body, String text, java.net.http.HttpHeaders headers) {

        @Override
        public String toString() {
            return status + " " + (text.length() > 600 ? text.substring(0, 600) + "..." : text);
        }
    }

    Answer post(String url, JsonNode body, boolean escapeNonAscii) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(write(body, escapeNonAscii), StandardCharsets.UTF_8)));
    }

    /** JSON text of {@code body}; with every non-ASCII character escaped when asked (or needed, for a lone surrogate). */
    static String write(JsonNode body, boolean escapeNonAscii) {
        try {
            return (escapeNonAscii ? ESCAPING : JSON).writeValueAsString(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    Answer post(String url, String contentType, String body) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    Answer get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET());
    }

    Answer delete(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).DELETE());
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = HTTP.send(request.header("Authorization", bearer)
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body;
            try {
                body = response.body().isEmpty() ? MissingNode.getInstance() : JSON.readTree(response.body());
            } catch (IOException notJson) {
                body = MissingNode.getInstance();
            }
            return new Answer(response.statusCode(), body, response.body(), response.headers());
        } catch (IOException e) {
            throw new IllegalStateException("HTTP failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static String query(Map<String, String> parameters) {
        StringBuilder out = new StringBuilder();
        parameters.forEach((name, value) -> out.append(out.isEmpty() ? "?" : "&").append(encode(name)).append('=')
                .append(encode(value)));
        return out.toString();
    }

    /**
     * Whether {@code actual} says what {@code expected} said: the same strings exactly, numbers equal as a JSON reader
     * holding IEEE doubles reads them (integers exactly), a null or absent field the same as an absent one.
     */
    static boolean same(JsonNode expected, JsonNode actual) {
        boolean expectedAbsent = expected == null || expected.isNull() || expected.isMissingNode();
        boolean actualAbsent = actual == null || actual.isNull() || actual.isMissingNode();
        if (expectedAbsent || actualAbsent) {
            return expectedAbsent == actualAbsent;
        }
        if (expected.isNumber() && actual.isNumber()) {
            BigDecimal sent = expected.decimalValue();
            BigDecimal read = actual.decimalValue();
            if (expected.isIntegralNumber()) {
                return sent.compareTo(read) == 0;
            }
            return sent.doubleValue() == read.doubleValue();
        }
        if (expected.isObject() && actual.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> field = it.next();
                if (!same(field.getValue(), actual.get(field.getKey()))) {
                    return false;
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = actual.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> field = it.next();
                if (!field.getValue().isNull() && !expected.has(field.getKey())) {
                    return false;
                }
            }
            return true;
        }
        if (expected.isArray() && actual.isArray()) {
            if (expected.size() != actual.size()) {
                return false;
            }
            for (int i = 0; i < expected.size(); i++) {
                if (!same(expected.get(i), actual.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return expected.equals(actual);
    }
}
