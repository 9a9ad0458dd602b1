import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * Walking-skeleton latency: for each sample, append one message to a new session on ingest-service and measure the
 * time from the 202 until query-service serves it (polled every millisecond, so resolution is about 1 ms).
 * Needs a running system (./hindsight up) and its env: HINDSIGHT_INGEST_URL, HINDSIGHT_QUERY_URL, HINDSIGHT_API_KEY.
 *
 *   source .hindsight/env && java bench/SkeletonLatency.java [samples=200]
 */
public class SkeletonLatency {

    public static void main(String[] args) throws Exception {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        String ingest = env("HINDSIGHT_INGEST_URL");
        String query = env("HINDSIGHT_QUERY_URL");
        String auth = "Bearer " + env("HINDSIGHT_API_KEY");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<Double> ackMs = new ArrayList<>();
        List<Double> visibleMs = new ArrayList<>();
        for (int i = 0; i < samples + 20; i++) {
            String session = "bench-" + UUID.randomUUID();
            String body = "{\"messages\": [{\"message_index\": 0, \"role\": \"user\", \"content\": \"sample " + i
                    + "\"}]}";
            long start = System.nanoTime();
            HttpResponse<String> accepted = http.send(HttpRequest.newBuilder(
                            URI.create(ingest + "/v1/sessions/" + session + "/messages"))
                    .header("Authorization", auth).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            long acked = System.nanoTime();
            if (accepted.statusCode() != 202) {
                throw new IllegalStateException("ingest answered " + accepted.statusCode() + ": " + accepted.body());
            }
            HttpRequest read = HttpRequest.newBuilder(URI.create(query + "/v1/sessions/" + session))
                    .header("Authorization", auth).build();
            long deadline = acked + Duration.ofSeconds(30).toNanos();
            while (http.send(read, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("session " + session + " not visible after 30 s");
                }
                Thread.sleep(1);
            }
            long visible = System.nanoTime();
            if (i >= 20) { // the first 20 warm up connections and JIT
                ackMs.add((acked - start) / 1e6);
                visibleMs.add((visible - acked) / 1e6);
            }
        }
        report("POST → 202 (ingest, Kafka acks=all)", ackMs);
        report("202 → visible in GET /v1/sessions/{id}", visibleMs);
    }

    private static void report(String what, List<Double> values) {
        Collections.sort(values);
        System.out.printf("%-42s n=%d  p50=%.1f ms  p95=%.1f ms  p99=%.1f ms  max=%.1f ms%n", what, values.size(),
                pct(values, 50), pct(values, 95), pct(values, 99), values.get(values.size() - 1));
    }

    private static double pct(List<Double> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null) {
            throw new IllegalStateException(name + " is not set: source .hindsight/env first");
        }
        return value;
    }
}
