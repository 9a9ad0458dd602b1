import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Freshness of query-service (issue #4): from ingest's answer to "visible in the read model", under a steady offered
 * load. Sends RATE events/s for SECONDS through POST /v1/events:batch (open loop: a batch every 1/(RATE/EVENTS) s
 * whether or not earlier ones were answered; each batch is ITEMS messages items of 2 messages, i.e. 2*ITEMS events,
 * each item in a new session). Visible means query-service committed it: its live stream (GET /v1/stream, server-sent
 * events sent after the projection's commit) names every session a committed batch touched, so each session's
 * freshness is the time from ingest's answer to its first appearance on the stream (0 if the stream was first). One
 * stream, no polling: the measurement adds no load that grows with lag. Sessions never seen within 60 s of the last
 * answer are counted as lost. Needs a running system and its env (source .hindsight/env).
 *
 *   java bench/Freshness.java [rate=2000] [seconds=30] [items=25]
 */
public class Freshness {

    public static void main(String[] args) throws Exception {
        int rate = arg(args, 0, 2000);
        int seconds = arg(args, 1, 30);
        int items = arg(args, 2, 25);
        String ingest = System.getenv("HINDSIGHT_INGEST_URL") + "/v1/events:batch";
        String stream = System.getenv("HINDSIGHT_QUERY_URL") + "/v1/stream";
        String auth = "Bearer " + System.getenv("HINDSIGHT_API_KEY");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();

        Map<String, Long> visible = new ConcurrentHashMap<>();
        Map<String, Long> answered = new ConcurrentHashMap<>();
        HttpResponse<Stream<String>> live = http.send(HttpRequest.newBuilder(URI.create(stream))
                .header("Authorization", auth).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofLines());
        if (live.statusCode() != 200) {
            throw new IllegalStateException("GET /v1/stream answered " + live.statusCode());
        }
        Thread reader = new Thread(() -> live.body().forEach(line -> {
            long now = System.nanoTime();
            int at = line.indexOf("\"id\":\"fresh-");
            if (at >= 0) {
                visible.putIfAbsent(line.substring(at + 6, line.indexOf('"', at + 6)), now);
            }
        }), "live-stream");
        reader.setDaemon(true);
        reader.start();

        int eventsPerBatch = 2 * items;
        long periodNanos = Math.round(1e9 * eventsPerBatch / rate);
        long batches = Math.round((double) seconds * rate / eventsPerBatch);
        AtomicLong accepted = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        long start = System.nanoTime();
        for (long b = 0; b < batches; b++) {
            long due = start + b * periodNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            List<String> sessions = new ArrayList<>(items);
            for (int i = 0; i < items; i++) {
                sessions.add("fresh-" + UUID.randomUUID());
            }
            HttpRequest post = HttpRequest.newBuilder(URI.create(ingest)).header("Authorization", auth)
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body(sessions))).build();
            all.add(http.sendAsync(post, HttpResponse.BodyHandlers.ofString()).thenAccept(response -> {
                long now = System.nanoTime();
                if (response.statusCode() != 200 || !response.body().contains("\"accepted\":" + items)) {
                    failed.incrementAndGet();
                    System.err.println("ingest answered " + response.statusCode() + ": "
                            + response.body().substring(0, Math.min(300, response.body().length())));
                    return;
                }
                accepted.addAndGet(eventsPerBatch);
                sessions.forEach(session -> answered.put(session, now));
            }).exceptionally(e -> {
                failed.incrementAndGet();
                System.err.println("request failed: " + e);
                return null;
            }));
        }
        double sendSeconds = (System.nanoTime() - start) / 1e9;
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!visible.keySet().containsAll(answered.keySet()) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }

        long[] sorted = answered.entrySet().stream().filter(e -> visible.containsKey(e.getKey()))
                .mapToLong(e -> Math.max(0, visible.get(e.getKey()) - e.getValue())).sorted().toArray();
        System.out.printf("offered %d events/s for %d s; ingest accepted %d events (%.0f/s), %d batches failed%n",
                rate, seconds, accepted.get(), accepted.get() / sendSeconds, failed.get());
        if (sorted.length == 0) {
            System.out.println("no session became visible");
            return;
        }
        System.out.printf("freshness (ingest answer -> session on query-service's live stream), %d sessions, %d never "
                        + "seen: p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                sorted.length, answered.size() - sorted.length, pct(sorted, 50), pct(sorted, 95), pct(sorted, 99),
                sorted[sorted.length - 1] / 1e6);
    }

    private static double pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p / 100.0) - 1)] / 1e6;
    }

    private static String body(List<String> sessions) {
        StringBuilder body = new StringBuilder("{\"items\": [");
        for (int i = 0; i < sessions.size(); i++) {
            if (i > 0) {
                body.append(',');
            }
            body.append("{\"type\": \"messages\", \"session_id\": \"").append(sessions.get(i))
                    .append("\", \"body\": {\"messages\": [")
                    .append("{\"message_index\": 0, \"role\": \"user\", \"content\": \"").append("x".repeat(200))
                    .append("\"}, {\"message_index\": 1, \"role\": \"assistant\", \"content\": \"")
                    .append("y".repeat(200)).append("\"}]}}");
        }
        return body.append("]}").toString();
    }

    private static int arg(String[] args, int index, int fallback) {
        return args.length > index ? Integer.parseInt(args[index]) : fallback;
    }
}
