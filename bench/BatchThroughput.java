import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sustained events/s through POST /v1/events:batch: CONCURRENCY clients each send batches of ITEMS items (one
 * messages item per session, MESSAGES messages each) back to back for SECONDS, after a warm-up. Counts only events
 * ingest acknowledged (202-equivalent "accepted" items). Needs a running system and its env (source .hindsight/env).
 *
 *   java bench/BatchThroughput.java [seconds=30] [concurrency=8] [items=50] [messages=2] [contentBytes=200]
 */
public class BatchThroughput {

    public static void main(String[] args) throws Exception {
        int seconds = arg(args, 0, 30);
        int concurrency = arg(args, 1, 8);
        int items = arg(args, 2, 50);
        int messages = arg(args, 3, 2);
        int contentBytes = arg(args, 4, 200);
        String url = System.getenv("HINDSIGHT_INGEST_URL") + "/v1/events:batch";
        String auth = "Bearer " + System.getenv("HINDSIGHT_API_KEY");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String content = "x".repeat(contentBytes);

        run(http, url, auth, concurrency, items, messages, content, 5, new AtomicLong()); // warm-up
        AtomicLong accepted = new AtomicLong();
        long start = System.nanoTime();
        run(http, url, auth, concurrency, items, messages, content, seconds, accepted);
        double elapsed = (System.nanoTime() - start) / 1e9;
        System.out.printf("ingest POST /v1/events:batch: %d events in %.1f s = %.0f events/s "
                + "(concurrency %d, %d items x %d messages per request, content %d B)%n",
                accepted.get(), elapsed, accepted.get() / elapsed, concurrency, items, messages, contentBytes);
    }

    private static void run(HttpClient http, String url, String auth, int concurrency, int items, int messages,
            String content, int seconds, AtomicLong accepted) {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        for (int c = 0; c < concurrency; c++) {
            clients.add(CompletableFuture.runAsync(() -> {
                while (System.nanoTime() < deadline) {
                    HttpResponse<String> response;
                    try {
                        response = http.send(HttpRequest.newBuilder(URI.create(url))
                                .header("Authorization", auth).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body(items, messages, content))).build(),
                                HttpResponse.BodyHandlers.ofString());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException("ingest answered " + response.statusCode() + ": "
                                + response.body());
                    }
                    int at = response.body().indexOf("\"accepted\":");
                    long count = Long.parseLong(response.body().substring(at + 11,
                            response.body().indexOf(',', at)).trim());
                    accepted.addAndGet(count * messages);
                }
            }));
        }
        clients.forEach(CompletableFuture::join);
    }

    private static String body(int items, int messages, String content) {
        StringBuilder body = new StringBuilder("{\"items\": [");
        for (int i = 0; i < items; i++) {
            if (i > 0) {
                body.append(',');
            }
            body.append("{\"type\": \"messages\", \"session_id\": \"bench-").append(UUID.randomUUID())
                    .append("\", \"body\": {\"messages\": [");
            for (int m = 0; m < messages; m++) {
                if (m > 0) {
                    body.append(',');
                }
                body.append("{\"message_index\": ").append(m).append(", \"role\": \"user\", \"content\": \"")
                        .append(content).append("\"}");
            }
            body.append("]}}");
        }
        return body.append("]}").toString();
    }

    private static int arg(String[] args, int index, int fallback) {
        return args.length > index ? Integer.parseInt(args[index]) : fallback;
    }
}
