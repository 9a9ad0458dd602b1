import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Read latency of query-service under concurrent connections: CONCURRENCY clients each send GET PATH back to back for
 * SECONDS (after a 5 s warm-up) and every answer's latency is recorded; prints p50/p95/p99/max and requests/s.
 * Needs a running system (./hindsight up) and its env: HINDSIGHT_QUERY_URL, HINDSIGHT_API_KEY.
 *
 *   source .hindsight/env && java bench/ReadLatency.java PATH [seconds=20] [concurrency=64]
 */
public class ReadLatency {

    public static void main(String[] args) throws Exception {
        String path = args[0];
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int concurrency = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        String query = System.getenv("HINDSIGHT_QUERY_URL");
        String auth = "Bearer " + System.getenv("HINDSIGHT_API_KEY");
        URI uri = URI.create(query + path);
        long warmUpEnd = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long end = warmUpEnd + Duration.ofSeconds(seconds).toNanos();
        List<long[]> perClient = new ArrayList<>();
        AtomicLong failures = new AtomicLong();
        CountDownLatch done = new CountDownLatch(concurrency);
        for (int c = 0; c < concurrency; c++) {
            long[] samples = new long[2_000_000];
            perClient.add(samples);
            Thread client = new Thread(() -> {
                // One client, one connection (HTTP/1.1 keep-alive), as a dashboard's connection pool would hold.
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                HttpRequest request = HttpRequest.newBuilder(uri).header("Authorization", auth).build();
                int n = 0;
                try {
                    while (System.nanoTime() < end) {
                        long start = System.nanoTime();
                        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        long took = System.nanoTime() - start;
                        if (response.statusCode() != 200) {
                            failures.incrementAndGet();
                        } else if (start > warmUpEnd && n < samples.length - 1) {
                            samples[++n] = took;
                        }
                    }
                } catch (Exception e) {
                    failures.incrementAndGet();
                } finally {
                    samples[0] = n;
                    done.countDown();
                }
            });
            client.start();
        }
        done.await();
        int total = 0;
        for (long[] samples : perClient) {
            total += (int) samples[0];
        }
        long[] all = new long[total];
        int at = 0;
        for (long[] samples : perClient) {
            System.arraycopy(samples, 1, all, at, (int) samples[0]);
            at += (int) samples[0];
        }
        Arrays.sort(all);
        System.out.printf("GET %s, %d connections, %d s: %d answers, %.0f req/s, p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, "
                + "max %.1f ms, non-200 or failed %d%n", path, concurrency, seconds, total, total / (double) seconds,
                ms(all, 0.50), ms(all, 0.95), ms(all, 0.99), all.length == 0 ? 0 : all[all.length - 1] / 1e6,
                failures.get());
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (quantile * sorted.length))] / 1e6;
    }
}
