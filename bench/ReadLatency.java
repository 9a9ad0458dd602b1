import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Read latency of query-service under concurrent connections (issue #4). Two ways to load it, both over at most
 * CONNECTIONS keep-alive HTTP/1.1 connections (one request in flight on each), for SECONDS after a 5 s warm-up:
 *
 * <ul>
 *   <li>RATE = 0, closed loop: every connection sends its next request as soon as the last is answered, so the
 *       service runs flat out and latency is mostly time in line (connections / throughput);</li>
 *   <li>RATE &gt; 0, open loop (like wrk2): requests are due at RATE per second whatever the answers do; one that finds
 *       every connection busy waits, and its latency counts from when it was due, not from when it was sent, so a
 *       stall shows in the percentiles instead of silently lowering the load (no coordinated omission).</li>
 * </ul>
 *
 * The client is asynchronous (the JDK's HttpClient on two threads) so it takes little of the cores it shares with
 * the service. Needs a running system (./hindsight up) and its env: HINDSIGHT_QUERY_URL, HINDSIGHT_API_KEY. With
 * HINDSIGHT_COOKIE set (a console sign-in cookie, name=value) it asks as a browser does instead: with that cookie and
 * Accept-Encoding: gzip, and no Authorization header (bench/console-page.sh).
 *
 *   source .hindsight/env && java bench/ReadLatency.java PATH [seconds=20] [connections=64] [rate=0]
 */
public class ReadLatency {

    private static final int MAX_SAMPLES = 4_000_000;

    public static void main(String[] args) throws Exception {
        String path = args[0];
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int connections = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        int rate = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        URI uri = URI.create(System.getenv("HINDSIGHT_QUERY_URL") + path);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newFixedThreadPool(2, task -> {
                    Thread thread = new Thread(task, "client");
                    thread.setDaemon(true);   // so the JVM ends when main does
                    return thread;
                })).connectTimeout(Duration.ofSeconds(5)).build();
        String cookie = System.getenv("HINDSIGHT_COOKIE");
        HttpRequest request = (cookie == null || cookie.isBlank()
                ? HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + System.getenv("HINDSIGHT_API_KEY"))
                : HttpRequest.newBuilder(uri).header("Cookie", cookie).header("Accept-Encoding", "gzip")).build();

        Run run = new Run(http, request, connections, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
        long end = run.measureFrom + TimeUnit.SECONDS.toNanos(seconds);
        if (rate <= 0) {
            for (int c = 0; c < connections; c++) {
                run.closedLoop(end);
            }
        } else {
            long period = 1_000_000_000L / rate;
            long start = System.nanoTime();
            for (long n = 0; ; n++) {
                long due = start + n * period;
                if (due >= end) {
                    break;
                }
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                run.offer(due);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((run.inFlight.get() > 0 || !run.waiting.isEmpty()) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(10);   // the last answers
        }
        long[] all = run.samples();
        Arrays.sort(all);
        System.out.printf("GET %s, %d connections, %s, %d s: %d answers, %.0f req/s, p50 %.1f ms, p95 %.1f ms, "
                        + "p99 %.1f ms, max %.1f ms, non-200 or failed %d%n", path, connections,
                rate <= 0 ? "closed loop" : "open loop at " + rate + " req/s", seconds, all.length,
                all.length / (double) seconds, ms(all, 0.50), ms(all, 0.95), ms(all, 0.99),
                all.length == 0 ? 0 : all[all.length - 1] / 1e6, run.failures.get());
    }

    /** The connections, the requests waiting for one, and the latencies measured. */
    private static final class Run {
        final HttpClient http;
        final HttpRequest request;
        final long measureFrom;
        final AtomicInteger free;
        final ConcurrentLinkedQueue<Long> waiting = new ConcurrentLinkedQueue<>();
        final AtomicLongArray samples = new AtomicLongArray(MAX_SAMPLES);
        final AtomicInteger count = new AtomicInteger();
        final AtomicLong failures = new AtomicLong();
        final AtomicInteger inFlight = new AtomicInteger();

        Run(HttpClient http, HttpRequest request, int connections, long measureFrom) {
            this.http = http;
            this.request = request;
            this.measureFrom = measureFrom;
            this.free = new AtomicInteger(connections);
        }

        /** Closed loop: one connection's chain of requests, each sent when the last was answered. */
        void closedLoop(long end) {
            inFlight.incrementAndGet();
            long start = System.nanoTime();
            http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
                record(start, response, error);
                if (System.nanoTime() < end) {
                    closedLoop(end);
                }
                inFlight.decrementAndGet();
            });
        }

        /** Open loop: a request due at {@code due}; sent now if a connection is free, else when one frees. */
        void offer(long due) {
            waiting.add(due);
            dispatch();
        }

        private void dispatch() {
            while (true) {
                int available = free.get();
                if (available == 0 || waiting.isEmpty()) {
                    return;
                }
                if (!free.compareAndSet(available, available - 1)) {
                    continue;
                }
                inFlight.incrementAndGet();
                Long due = waiting.poll();
                if (due == null) {
                    free.incrementAndGet();
                    inFlight.decrementAndGet();
                    return;
                }
                http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
                    record(due, response, error);
                    free.incrementAndGet();
                    inFlight.decrementAndGet();
                    dispatch();
                });
            }
        }

        private void record(long since, HttpResponse<byte[]> response, Throwable error) {
            if (error != null || response.statusCode() != 200) {
                failures.incrementAndGet();
            } else if (since >= measureFrom) {
                int n = count.getAndIncrement();
                if (n < MAX_SAMPLES) {
                    samples.set(n, System.nanoTime() - since);
                }
            }
        }

        long[] samples() {
            int n = Math.min(count.get(), MAX_SAMPLES);
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = samples.get(i);
            }
            return out;
        }
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (quantile * sorted.length))] / 1e6;
    }
}
