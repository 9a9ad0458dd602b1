package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.system.Wire.Answer;
import dev.hindsight.testing.TestTenants;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every endpoint of the read side (query-service and memory-service), found in the service's own OpenAPI document,
 * called with hostile values in every path and query parameter and hostile bodies, through the packaged services:
 * none may answer 5xx, and a 400 is always problem+json. Parameters get what a careless client or an attacker sends:
 * percent-encoded NUL, malformed percent-encoding, invalid UTF-8, 10,000 characters, numbers out of every range,
 * dates that do not exist, markup. The seed is printed; {@code -Dhindsight.test.seed=...} replays a run.
 */
class ReadSideFuzzIT {

    private static final String[] HOSTILE = {"", "%20", "%00", "a%00b", "%", "%zz", "%C3%28", "%ED%A0%80", "%F0%9F",
        "..%2F..%2Fetc%2Fpasswd", "%2F", "a".repeat(10_000), "%F0%9F%98%80", "%01%1F", "%E2%80%AE", "-1", "0",
        "2147483648", "99999999999999999999999", "1e400", "NaN", "-Infinity", "true", "null", "2025-13-45",
        "2025-02-30", "9999-12-31T25:61:00Z", "%27%3B%20DROP%20TABLE%20session%3B--", "%3Cscript%3E", "%5B%5D",
        "%7B%7D", "00000000-0000-0000-0000-000000000000", "not-a-uuid", "*", "%2A%25", "+", "%20%20"};
    /** Vert.x's default maximum initial line length, which Quarkus keeps. */
    private static final int MAX_REQUEST_LINE = 4096;
    private static final Pattern PARAMETER = Pattern.compile("\\{([^}]+)}");

    private static RunningSystem system;

    @BeforeAll
    static void startSystem() {
        system = RunningSystem.shared();
    }

    /** One operation of a service's OpenAPI document: its method, path template and query parameter names. */
    private record Operation(String method, String path, List<String> query, JsonNode example) {
    }

    @ParameterizedTest
    @EnumSource(value = Service.class, names = {"QUERY", "MEMORY"})
    void noHostileParameterOrBodyGetsA5xx(Service service) throws Exception {
        long seed = Long.getLong("hindsight.test.seed", System.nanoTime());
        Random random = new Random(seed);
        Hostile hostile = new Hostile(random);
        List<Operation> operations = operations(service);
        assertThat(operations).as(service + " documents its endpoints").hasSizeGreaterThan(3);
        List<String> failures = new ArrayList<>();
        int sent = fuzz(service, operations, random, hostile, failures);
        System.out.println("ReadSideFuzzIT " + service + ": " + sent + " requests, seed " + seed);
        assertThat(failures).as(service + " (seed " + seed + ", replay with -Dhindsight.test.seed=" + seed + "):\n"
                + String.join("\n", failures.subList(0, Math.min(20, failures.size())))).isEmpty();
    }

    /**
     * The console's pages (not in the OpenAPI document: they are HTML for people) get the same hostile parameters:
     * none may answer 5xx, and a refusal is a 400 page or problem.
     */
    @org.junit.jupiter.api.Test
    void noHostileParameterOnAConsolePageGetsA5xx() {
        long seed = Long.getLong("hindsight.test.seed", System.nanoTime());
        Random random = new Random(seed);
        List<String> sessionFilters = List.of("kind", "model", "outcome", "qa_status", "label", "from", "to", "cursor");
        List<Operation> pages = List.of(
                new Operation("GET", "/ui/sessions", sessionFilters, null),
                new Operation("GET", "/ui/sessions/{id}", List.of(), null),
                new Operation("GET", "/ui/sessions/{id}/messages/{index}", List.of(), null),
                new Operation("GET", "/ui/traces/{id}", List.of(), null),
                new Operation("GET", "/ui/decision-sets", List.of("session_id", "has_shadow"), null),
                new Operation("GET", "/ui/decision-sets/{id}", List.of(), null),
                new Operation("GET", "/ui/versions", List.of("from", "to"), null),
                new Operation("GET", "/ui/ops", List.of(), null),
                new Operation("GET", "/ui/projects", List.of(), null),
                new Operation("GET", "/ui/projects/{id}/memories", List.of("q", "order", "after", "page"), null),
                new Operation("GET", "/ui/memories/{id}", List.of(), null),
                new Operation("GET", "/ui/sign-in", List.of("next"), null));
        List<String> failures = new ArrayList<>();
        int sent = fuzz(Service.QUERY, pages, random, new Hostile(random), failures);
        System.out.println("ReadSideFuzzIT console: " + sent + " requests, seed " + seed);
        assertThat(failures).as("console (seed " + seed + ", replay with -Dhindsight.test.seed=" + seed + "):\n"
                + String.join("\n", failures.subList(0, Math.min(20, failures.size())))).isEmpty();
    }

    /** Sends each operation 40 times with hostile parameters (and bodies); adds what answered wrongly to failures. */
    private static int fuzz(Service service, List<Operation> operations, Random random, Hostile hostile,
            List<String> failures) {
        int sent = 0;
        for (Operation operation : operations) {
            // An operator's rebuild would start over every read model under the other tests' feet: it is fuzzed
            // with a key that may not run it (its parameters are read first either way).
            boolean disruptive = operation.path().contains("/admin/") && !operation.method().equals("GET");
            String bearer = disruptive ? TestTenants.TENANT_B.bearer() : TestTenants.TENANT_A.bearer();
            boolean page = operation.path().startsWith("/ui");
            for (int round = 0; round < 40; round++) {
                String path = fill(operation.path(), random);
                StringBuilder query = new StringBuilder();
                for (String name : operation.query()) {
                    if (random.nextInt(3) > 0) {
                        query.append(query.isEmpty() ? '?' : '&').append(name).append('=')
                                .append(HOSTILE[random.nextInt(HOSTILE.length)]);
                    }
                }
                if (random.nextInt(8) == 0) {
                    query.append(query.isEmpty() ? '?' : '&').append(HOSTILE[random.nextInt(HOSTILE.length)])
                            .append('=').append(HOSTILE[random.nextInt(HOSTILE.length)]);
                }
                String body = operation.method().equals("GET") || operation.method().equals("DELETE") ? null
                        : body(operation, hostile, random);
                String url = system.url(service) + path + query;
                Raw answer = send(operation.method(), url, body, bearer);
                sent++;
                String where = operation.method() + " " + path + query + (body == null ? ""
                        : " with " + (body.length() > 300 ? body.substring(0, 300) + "..." : body));
                if (answer.status() >= 500) {
                    failures.add(where + " -> " + answer.status() + " " + answer.body());
                } else if (answer.status() == 400 && !answer.contentType().startsWith("application/problem+json")
                        && !(page && answer.contentType().startsWith("text/html")) && isUri(path + query)) {
                    // A target that is not a URI at all (a '%' not followed by two hex digits) is refused by the HTTP
                    // server itself before any endpoint, with a bare 400; everything else must be a problem (or, for
                    // a console page, a page saying what is wrong).
                    failures.add(where + " -> 400 without problem+json: " + answer.body());
                }
            }
        }
        return sent;
    }

    /** Every operation the service's own OpenAPI document lists, but the framework's own ({@code /q/...}). */
    private static List<Operation> operations(Service service) throws Exception {
        Answer document = new Wire(TestTenants.TENANT_A.bearer()).get(system.url(service) + "/q/openapi?format=json");
        assertThat(document.status()).as("OpenAPI of " + service).isEqualTo(200);
        List<Operation> operations = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = document.body().path("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            if (path.getKey().startsWith("/q/") || path.getKey().equals("/v1/stream")) {
                // The live stream never ends: it is tested for its own contract elsewhere.
                continue;
            }
            for (Iterator<Map.Entry<String, JsonNode>> methods = path.getValue().fields(); methods.hasNext();) {
                Map.Entry<String, JsonNode> method = methods.next();
                String verb = method.getKey().toUpperCase(java.util.Locale.ROOT);
                if (!List.of("GET", "POST", "PUT", "DELETE", "PATCH").contains(verb)) {
                    continue;
                }
                List<String> query = new ArrayList<>();
                for (JsonNode parameter : method.getValue().path("parameters")) {
                    if (parameter.path("in").asText().equals("query")) {
                        query.add(parameter.path("name").asText());
                    }
                }
                JsonNode example = method.getValue().path("requestBody").path("content").path("application/json")
                        .path("schema").path("example");
                operations.add(new Operation(verb, path.getKey(), query, example));
            }
        }
        return operations;
    }

    /** The path with every {@code {parameter}} replaced by a hostile value, percent-encoded or raw. */
    private static String fill(String template, Random random) {
        Matcher matcher = PARAMETER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(HOSTILE[random.nextInt(HOSTILE.length)]));
        }
        matcher.appendTail(out);
        String path = out.toString();
        // An empty segment would name another endpoint (or none); keep one character.
        return path.replace("//", "/x/").endsWith("/") ? path + "x" : path.replace("//", "/x/");
    }

    /** A body: hostile JSON of any shape, the documented example with a hostile leaf, or no JSON at all. */
    private static String body(Operation operation, Hostile hostile, Random random) {
        switch (random.nextInt(6)) {
            case 0 -> {
                return "";
            }
            case 1 -> {
                return "{\"query\": \"unterminated";
            }
            case 2 -> {
                return Wire.write(JsonNodeFactory.instance.objectNode().set("x", hostile.json(6)), random.nextBoolean());
            }
            case 3 -> {
                return "{\"query\": \"a\\u0000b\", \"limit\": 1e400, \"helpful\": \"\\ud800\", \"title\": [[[]]]}";
            }
            default -> {
                if (!operation.example().isObject()) {
                    return Wire.write(hostile.json(4), true);
                }
                com.fasterxml.jackson.databind.node.ObjectNode example = operation.example().deepCopy();
                if (example.size() > 0) {
                    hostile.poison(example);
                }
                return Wire.write(example, true);
            }
        }
    }

    private static boolean isUri(String target) {
        try {
            URI.create(target);
            return true;
        } catch (IllegalArgumentException notUri) {
            return false;
        }
    }

    /** An answer as the raw client read it. */
    private record Raw(int status, String contentType, String body) {
    }

    /**
     * Sends exactly the bytes a careless client would, over a plain socket: the request line is not re-encoded, so
     * malformed percent-encoding reaches the server as it was written.
     */
    private static Raw send(String method, String url, String body, String bearer) {
        URI base = URI.create(url.substring(0, url.indexOf('/', "http://".length())));
        String target = url.substring(url.indexOf('/', "http://".length()));
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " " + target + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                    + "\r\nAuthorization: " + bearer + "\r\nConnection: close\r\n"
                    + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + content.length
                            + "\r\n") + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(content);
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int headersEnd = answer.indexOf("\r\n\r\n");
            String head = headersEnd < 0 ? answer : answer.substring(0, headersEnd);
            String[] lines = head.split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            String contentType = "";
            for (String line : lines) {
                if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-type:")) {
                    contentType = line.substring("content-type:".length()).trim();
                }
            }
            return new Raw(status, contentType, headersEnd < 0 ? "" : answer.substring(headersEnd + 4));
        } catch (java.net.SocketException reset) {
            // A request line longer than the HTTP server takes (4,096 bytes) is refused before any endpoint and the
            // connection closed; a client still sending its body then reads a reset instead of the refusal. That is a
            // refusal, not a failure of the service; any other reset is.
            if (target.length() > MAX_REQUEST_LINE) {
                return new Raw(414, "", "refused by the HTTP server: " + reset.getMessage());
            }
            throw new IllegalStateException(method + " " + url + " failed: " + reset, reset);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(method + " " + url + " failed: " + e, e);
        }
    }
}
