package dev.hindsight.system;

import dev.hindsight.testing.PackagedService;
import dev.hindsight.testing.TestDatabase;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * All four packaged services as separate processes, each with a throwaway database where it owns one, on the shared
 * test broker and registry, with consumer groups of their own (so that two test classes never split a topic's
 * partitions between their services). Services can be killed and started again, as in production.
 */
final class RunningSystem implements AutoCloseable {

    /** The services, in the order they are started: consumers first, ingest last (it asks query for conflicts). */
    enum Service {
        QUERY, EVALUATION, MEMORY, INGEST;

        String jarName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final Map<Service, TestDatabase> databases = new EnumMap<>(Service.class);
    private final Map<Service, Map<String, String>> configs = new EnumMap<>(Service.class);
    private final Map<Service, PackagedService> running = new EnumMap<>(Service.class);

    private static RunningSystem shared;

    /**
     * One system for every test class that only sends requests and reads (its services keep running until the test
     * JVM exits); a test that kills services starts its own with {@link #start}.
     */
    static synchronized RunningSystem shared() {
        if (shared == null) {
            shared = start(Map.of());
            RunningSystem stopping = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(stopping::close, "stop-shared-system"));
        }
        return shared;
    }

    /** Starts every service; {@code extra} adds configuration per service. */
    static RunningSystem start(Map<Service, Map<String, String>> extra) {
        RunningSystem system = new RunningSystem();
        try {
            for (Service service : Service.values()) {
                system.configs.put(service, system.config(service, extra.getOrDefault(service, Map.of())));
            }
            // The three consumers start side by side (each takes seconds of JIT and Flyway); ingest needs query's URL.
            List<CompletableFuture<Void>> consumers = List.of(Service.QUERY, Service.EVALUATION, Service.MEMORY)
                    .stream().map(s -> CompletableFuture.runAsync(() -> system.startService(s))).toList();
            CompletableFuture.allOf(consumers.toArray(CompletableFuture[]::new)).join();
            system.configs.get(Service.INGEST).put("hindsight.ingest.conflict-check-url", system.url(Service.QUERY));
            system.startService(Service.INGEST);
            return system;
        } catch (RuntimeException e) {
            system.close();
            throw e;
        }
    }

    private Map<String, String> config(Service service, Map<String, String> extra) {
        Map<String, String> config = new HashMap<>();
        switch (service) {
            case QUERY -> config.put("hindsight.query.group", "system-query-" + run);
            case EVALUATION -> config.put("hindsight.evaluation-group", "system-evaluation-" + run);
            case MEMORY -> {
                config.put("hindsight.memory-group", "system-memory-" + run);
                // Distil soon after a session completes, so that tests need not wait minutes.
                config.put("hindsight.memory.distill.grace", "3s");
                config.put("hindsight.memory.distill.outcome-delay", "2s");
                config.put("hindsight.memory.work.poll-interval", "200ms");
            }
            case INGEST -> { }
        }
        if (service != Service.INGEST) {
            TestDatabase database = TestDatabase.create("system_" + service.jarName());
            databases.put(service, database);
            config.put("quarkus.datasource.reactive.url", database.reactiveUrl());
            config.put("quarkus.datasource.jdbc.url", database.jdbcUrl());
            config.put("quarkus.datasource.username", TestDatabase.user());
            config.put("quarkus.datasource.password", TestDatabase.password());
        }
        config.putAll(extra);
        return config;
    }

    private void startService(Service service) {
        PackagedService started = PackagedService.start(service.jarName(), configs.get(service));
        synchronized (running) {
            running.put(service, started);
        }
    }

    String url(Service service) {
        synchronized (running) {
            PackagedService process = running.get(service);
            if (process == null) {
                throw new IllegalStateException(service + " is not running");
            }
            return process.url();
        }
    }

    /** The last lines of every running service's log, for a failure message. */
    String logs(int lines) {
        StringBuilder out = new StringBuilder();
        synchronized (running) {
            running.forEach((service, process) -> out.append("\n--- ").append(service).append(" ---\n")
                    .append(process.logTail(lines)));
        }
        return out.toString();
    }

    @Override
    public void close() {
        synchronized (running) {
            running.values().forEach(PackagedService::close);
            running.clear();
        }
        databases.values().forEach(TestDatabase::close);
        databases.clear();
    }
}
