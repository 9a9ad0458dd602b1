package dev.hindsight.system;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestTenants;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a test (no assertion, never in CI; {@code bench/tenant-isolation.sh} runs it): what one tenant
 * flooding ingest does to another tenant's latency, with tenant quotas on and off. A calm tenant appends one message
 * 20 times a second for {@code SECONDS}, first alone, then while a flooding tenant sends 100-event batches as fast as
 * 8 connections can; the calm tenant's latency (POST to 202) is reported for both, with the flood's accepted events a
 * second and its refusals. Written to {@code target/tenant-isolation.md}.
 */
class TenantIsolationBenchmark {

    private static final int SECONDS = Integer.getInteger("hindsight.bench.seconds", 30);
    private static final boolean QUOTAS = !"false".equals(System.getProperty("hindsight.bench.quotas"));
    /** Whether the flooding tenant waits as Retry-After says (as exporters and Hindsight's clients do) or not. */
    private static final boolean POLITE = Boolean.getBoolean("hindsight.bench.flood-honours-retry-after");
    /** The flooding tenant's own quota of events a second (empty: the default). */
    private static final String FLOOD_QUOTA = System.getProperty("hindsight.bench.flood-quota", "");

    @Test
    void calmTenantLatencyAloneAndBesideAFlood() throws Exception {
        List<String> out = new ArrayList<>(List.of("Tenant isolation, quotas " + (!QUOTAS ? "off"
                : FLOOD_QUOTA.isEmpty() ? "on (defaults)" : "on, the flooding tenant's " + FLOOD_QUOTA + " events/s")
                + (POLITE ? ", the flood waiting as Retry-After says" : ", the flood ignoring Retry-After")
                + ", " + Instant.now() + ", " + SECONDS + " s per phase", "",
                "| phase | calm tenant: requests, p50 / p95 / p99 (ms) | flood: events accepted a second, 429s |",
                "|---|---|---|"));
        Map<String, String> ingestConfig = new java.util.HashMap<>(Map.of("hindsight.ingest.quota.enabled",
                Boolean.toString(QUOTAS)));
        if (!FLOOD_QUOTA.isEmpty()) {
            ingestConfig.put("hindsight.ingest.quota.tenant." + TestTenants.FLOOD.tenant() + ".events-per-second",
                    FLOOD_QUOTA);
        }
        try (RunningSystem system = RunningSystem.builder().config(Service.INGEST, ingestConfig).start()) {
            String ingest = system.url(Service.INGEST);
            // Warm-up: the JIT of every service on the calm tenant's path.
            calm(ingest, 15, null);
            out.add("| calm tenant alone | " + calm(ingest, SECONDS, null) + " | |");
            Flood flood = new Flood(ingest);
            out.add("| beside a flood | " + calm(ingest, SECONDS, flood) + " | " + flood.summary() + " |");
        }
        Files.write(Path.of("target", "tenant-isolation.md"), out);
        System.out.println(String.join("\n", out));
    }

    /** The calm tenant's requests for {@code seconds}, with the flood running meanwhile when given. */
    private static String calm(String ingest, int seconds, Flood flood) throws Exception {
        Wire wire = new Wire(TestTenants.TENANT_B.bearer());
        List<Long> micros = Collections.synchronizedList(new ArrayList<>());
        AtomicLong next = new AtomicLong();
        String session = "calm-" + System.nanoTime();
        if (flood != null) {
            flood.start();
        }
        ScheduledExecutorService senders = Executors.newScheduledThreadPool(4);
        senders.scheduleAtFixedRate(() -> {
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.putArray("messages").addObject().put("message_index", next.getAndIncrement()).put("role", "user")
                    .put("content", "What changed in the latest release?");
            long began = System.nanoTime();
            int status = wire.post(ingest + "/v1/sessions/" + session + "/messages", body, false).status();
            if (status == 202) {
                micros.add((System.nanoTime() - began) / 1_000);
            }
        }, 0, 50, TimeUnit.MILLISECONDS);
        // The measurement window itself: the load runs for this long.
        TimeUnit.SECONDS.sleep(seconds);
        senders.shutdown();
        senders.awaitTermination(30, TimeUnit.SECONDS);
        if (flood != null) {
            flood.stop(seconds);
        }
        List<Long> sorted = new ArrayList<>(micros);
        Collections.sort(sorted);
        return String.format("%d, %.1f / %.1f / %.1f", sorted.size(), at(sorted, 0.50), at(sorted, 0.95),
                at(sorted, 0.99));
    }

    private static double at(List<Long> sorted, double quantile) {
        return sorted.isEmpty() ? Double.NaN
                : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1)) / 1000.0;
    }

    /** Eight connections sending 100-event batches back to back as the flooding tenant. */
    private static final class Flood {
        private final String ingest;
        private final AtomicBoolean running = new AtomicBoolean();
        private final AtomicLong accepted = new AtomicLong();
        private final AtomicLong refused = new AtomicLong();
        private final ExecutorService threads = Executors.newFixedThreadPool(8);
        private double seconds;

        Flood(String ingest) {
            this.ingest = ingest;
        }

        void start() {
            running.set(true);
            for (int t = 0; t < 8; t++) {
                int thread = t;
                threads.submit(() -> {
                    Wire wire = new Wire(TestTenants.FLOOD.bearer());
                    long index = 0;
                    while (running.get()) {
                        ObjectNode batch = JsonNodeFactory.instance.objectNode();
                        var messages = batch.putArray("items").addObject().put("type", "messages")
                                .put("session_id", "flood-" + thread).putObject("body").putArray("messages");
                        for (int m = 0; m < 100; m++) {
                            messages.addObject().put("message_index", index++).put("role", "user")
                                    .put("content", "flooding message " + index);
                        }
                        Wire.Answer answer = wire.post(ingest + "/v1/events:batch", batch, false);
                        if (answer.status() == 200) {
                            accepted.addAndGet(100);
                        } else if (answer.status() == 429) {
                            refused.incrementAndGet();
                            if (POLITE) {
                                pause(answer);
                            }
                        }
                    }
                });
            }
        }

        void stop(int seconds) throws InterruptedException {
            running.set(false);
            threads.shutdown();
            threads.awaitTermination(60, TimeUnit.SECONDS);
            this.seconds = seconds;
        }

        /** Waits as the answer's Retry-After says, or until the flood stops. */
        private void pause(Wire.Answer answer) {
            long seconds = answer.headers().firstValue("Retry-After").map(Long::parseLong).orElse(1L);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (running.get() && System.nanoTime() < until) {
                try {
                    TimeUnit.MILLISECONDS.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        String summary() {
            return String.format("%.0f, %d", accepted.get() / seconds, refused.get());
        }
    }
}
