import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * memory-service latency (issue #6): loads a project with N generated memories through the REST API, then measures
 * record and search latency (search includes embedding the query in-process) from CLIENTS concurrent clients.
 * Needs a running system (./hindsight up) and its env: HINDSIGHT_MEMORY_URL, HINDSIGHT_API_KEY.
 *
 *   source .hindsight/env
 *   java bench/MemoryLatency.java load PROJECT 100000 [clients=4]     # record N memories, prints throughput
 *   java bench/MemoryLatency.java search PROJECT [samples=1000] [clients=1]
 *   java bench/MemoryLatency.java record PROJECT [samples=500] [clients=1]
 *
 * Memories are generated from templates (problem x component x approach x language), so texts differ in meaning and
 * not only in a counter; search queries are paraphrases built from other words for the same ideas.
 */
public class MemoryLatency {

    static final String[] PROBLEMS = {"null pointer", "race condition", "memory leak", "slow query", "timeout",
            "flaky test", "off-by-one error", "deadlock", "encoding bug", "stale cache", "config drift",
            "dependency conflict", "permission error", "retry storm", "clock skew", "schema mismatch"};
    static final String[] COMPONENTS = {"auth service", "payment gateway", "CSV importer", "search index",
            "message consumer", "REST client", "build pipeline", "database migration", "job scheduler",
            "websocket server", "file uploader", "session store", "rate limiter", "email sender", "report generator",
            "feature flag service", "trading engine", "order book", "metrics exporter", "image resizer"};
    static final String[] APPROACHES = {"add a regression test that reproduces it first",
            "bisect the commits to find the change that introduced it", "add structured logging around the boundary",
            "make the operation idempotent and retry with backoff", "validate inputs at the edge and fail fast",
            "pin the dependency version in the lock file", "profile before optimising and fix the hot path",
            "introduce a timeout and a circuit breaker", "move the shared state behind a lock or an actor",
            "invalidate the cache on write instead of on a timer", "use a transaction for the read-modify-write",
            "normalise encodings to UTF-8 at input"};
    static final String[] LANGUAGES = {"java", "go", "python", "typescript", "rust", "kotlin", "sql", "bash"};
    static final String[] QUERIES = {"users get logged out because the token check is wrong",
            "the importer loses the last line of the file", "two threads update the same row and one write is lost",
            "the service gets slower every hour until it restarts", "the nightly job hangs waiting on a lock",
            "tests pass locally and fail in CI sometimes", "a library upgrade broke the build",
            "requests pile up when the downstream API is slow", "prices in the report are stale",
            "accented names come out garbled in exports"};

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String project = args[1];
        String base = System.getenv("HINDSIGHT_MEMORY_URL");
        String auth = "Bearer " + System.getenv("HINDSIGHT_API_KEY");
        switch (mode) {
            case "load" -> load(base, auth, project, Integer.parseInt(args[2]), args.length > 3 ? Integer.parseInt(args[3]) : 4);
            case "search" -> measure(base, auth, project, true, args.length > 2 ? Integer.parseInt(args[2]) : 1000,
                    args.length > 3 ? Integer.parseInt(args[3]) : 1);
            case "record" -> measure(base, auth, project, false, args.length > 2 ? Integer.parseInt(args[2]) : 500,
                    args.length > 3 ? Integer.parseInt(args[3]) : 1);
            default -> throw new IllegalArgumentException("mode: load | search | record");
        }
    }

    static String memory(long i) {
        Random r = new Random(i * 7919L + 17);
        String problem = PROBLEMS[r.nextInt(PROBLEMS.length)];
        String component = COMPONENTS[r.nextInt(COMPONENTS.length)];
        String approach = APPROACHES[r.nextInt(APPROACHES.length)];
        String language = LANGUAGES[r.nextInt(LANGUAGES.length)];
        boolean failure = r.nextInt(4) == 0;
        String title = (failure ? "Avoid: " : "") + "Fix the " + problem + " in the " + component + " (#" + i + ")";
        String content = failure
                ? "What went wrong: we tried to patch the " + problem + " in the " + component + " in " + language
                        + " without understanding it and it came back. Do instead: " + approach + "."
                : "When the " + component + " shows a " + problem + ", " + approach + ". Worked in " + language
                        + " after " + (1 + r.nextInt(9)) + " attempts.";
        return "{\"title\":\"" + title + "\",\"content\":\"" + content + "\",\"outcome\":\""
                + (failure ? "failure" : "success") + "\",\"tags\":[\"language:" + language + "\"]}";
    }

    static void load(String base, String auth, String project, int n, int clients) throws Exception {
        URI uri = URI.create(base + "/v1/projects/" + project + "/memories");
        AtomicInteger next = new AtomicInteger();
        AtomicLong failures = new AtomicLong();
        CountDownLatch done = new CountDownLatch(clients);
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            new Thread(() -> {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                int i;
                while ((i = next.getAndIncrement()) < n) {
                    try {
                        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri)
                                .header("Authorization", auth).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(memory(i))).build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (!recorded(response.statusCode())) {
                            failures.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                    if (i > 0 && i % 10_000 == 0) {
                        System.out.printf("%d recorded, %.0f/s%n", i, i / ((System.nanoTime() - start) / 1e9));
                    }
                }
                done.countDown();
            }).start();
        }
        done.await();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("loaded %d memories in %.0f s (%.0f/s, %d clients), %d failures%n", n, seconds, n / seconds,
                clients, failures.get());
    }

    static void measure(String base, String auth, String project, boolean search, int samples, int clients)
            throws Exception {
        URI uri = URI.create(base + "/v1/projects/" + project + "/memories" + (search ? "/search" : ""));
        int warmUp = 50;
        AtomicInteger next = new AtomicInteger();
        AtomicLong failures = new AtomicLong();
        AtomicLong rerecorded = new AtomicLong();
        long[] took = new long[samples];
        List<Integer> returned = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(clients);
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            new Thread(() -> {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                int i;
                while ((i = next.getAndIncrement()) < samples + warmUp) {
                    String body = search
                            ? "{\"query\":\"" + QUERIES[i % QUERIES.length] + " in the " + COMPONENTS[i % COMPONENTS.length] + "\"}"
                            : memory(5_000_000L + i + System.nanoTime() % 1000);
                    try {
                        long t0 = System.nanoTime();
                        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri)
                                .header("Authorization", auth).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        long t = System.nanoTime() - t0;
                        if (!search && response.statusCode() == 200) {
                            rerecorded.incrementAndGet();
                        }
                        if (search ? response.statusCode() != 200 : !recorded(response.statusCode())) {
                            failures.incrementAndGet();
                        } else if (i >= warmUp) {
                            took[i - warmUp] = t;
                            if (search) {
                                synchronized (returned) {
                                    returned.add(response.body().split("\"id\"", -1).length - 1);
                                }
                            }
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                }
                done.countDown();
            }).start();
        }
        done.await();
        double seconds = (System.nanoTime() - start) / 1e9;
        long[] sorted = Arrays.stream(took).filter(t -> t > 0).sorted().toArray();
        System.out.printf("%s: %d samples, %d clients: p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms; "
                        + "%.0f req/s; %d failures%s%n", search ? "search" : "record", sorted.length, clients,
                pct(sorted, 50), pct(sorted, 95), pct(sorted, 99), sorted[sorted.length - 1] / 1e6,
                (samples + warmUp) / seconds, failures.get(), search ? String.format("; mean results %.1f",
                        returned.stream().mapToInt(Integer::intValue).average().orElse(0))
                        : String.format("; %d of them identical to one already recorded (200)", rerecorded.get()));
    }

    /**
     * What the API promises for a record: 201 for a new memory, 200 for one identical to a memory already recorded
     * (idempotent; the random part of a sample's text can repeat).
     */
    static boolean recorded(int status) {
        return status == 201 || status == 200;
    }

    static double pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
    }
}
