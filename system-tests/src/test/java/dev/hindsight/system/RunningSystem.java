package dev.hindsight.system;

import dev.hindsight.testing.PackagedService;
import dev.hindsight.testing.Ports;
import dev.hindsight.testing.TestDatabase;
import dev.hindsight.testing.TestPostgres;
import dev.hindsight.testing.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * All four packaged services as separate processes, each with a database of its own where it owns one, on the shared
 * test broker and registry (or on a broker and a PostgreSQL of the test's own), with consumer groups of their own, so
 * that two test classes never split a topic's partitions between their services. A service may run as several
 * replicas; any instance can be killed and started again on its port, as in production.
 */
final class RunningSystem implements AutoCloseable {

    /** The services, in the order they are started: consumers first, ingest last (it asks query for conflicts). */
    enum Service {
        QUERY, EVALUATION, MEMORY, INGEST;

        String jarName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One process of a service: {@code query-2} is the second replica of query-service. */
    record Instance(Service service, int replica) {

        String name() {
            return service.jarName() + "-" + replica;
        }

        @Override
        public String toString() {
            return name();
        }
    }

    private static RunningSystem shared;

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String bootstrapServers;
    private final TestPostgres postgres;
    private final List<TestDatabase> databases = new ArrayList<>();
    private final Map<Service, Map<String, String>> configs = new EnumMap<>(Service.class);
    private final Map<Instance, Integer> ports = new LinkedHashMap<>();
    private final Map<Instance, PackagedService> running = new LinkedHashMap<>();

    private RunningSystem(String bootstrapServers, TestPostgres postgres) {
        this.bootstrapServers = bootstrapServers;
        this.postgres = postgres;
    }

    /**
     * One system for every test class that only sends requests and reads (its services keep running until the test
     * JVM exits); a test that kills services starts its own.
     */
    static synchronized RunningSystem shared() {
        if (shared == null) {
            shared = builder().start();
            RunningSystem stopping = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(stopping::close, "stop-shared-system"));
        }
        return shared;
    }

    static Builder builder() {
        return new Builder();
    }

    /** What to start: on which broker and PostgreSQL, how many replicas, with what extra configuration. */
    static final class Builder {
        private String bootstrapServers;
        private TestPostgres postgres;
        private final Map<Service, Integer> replicas = new EnumMap<>(Service.class);
        private final Map<Service, Map<String, String>> extra = new EnumMap<>(Service.class);

        /** A broker of the test's own instead of the shared in-JVM one. */
        Builder broker(String bootstrapServers) {
            this.bootstrapServers = bootstrapServers;
            return this;
        }

        /** A PostgreSQL of the test's own instead of the machine's. */
        Builder postgres(TestPostgres postgres) {
            this.postgres = postgres;
            return this;
        }

        Builder replicas(Service service, int count) {
            replicas.put(service, count);
            return this;
        }

        Builder config(Service service, Map<String, String> config) {
            extra.computeIfAbsent(service, s -> new HashMap<>()).putAll(config);
            return this;
        }

        RunningSystem start() {
            RunningSystem system = new RunningSystem(bootstrapServers, postgres);
            try {
                for (Service service : Service.values()) {
                    system.configs.put(service, system.config(service, extra.getOrDefault(service, Map.of())));
                    for (int replica = 1; replica <= replicas.getOrDefault(service, 1); replica++) {
                        system.ports.put(new Instance(service, replica), Ports.free());
                    }
                }
                // The consumers start side by side (each takes seconds of JIT and Flyway); ingest needs query's URL.
                List<CompletableFuture<Void>> consumers = system.ports.keySet().stream()
                        .filter(instance -> instance.service() != Service.INGEST)
                        .map(instance -> CompletableFuture.runAsync(() -> system.start(instance))).toList();
                CompletableFuture.allOf(consumers.toArray(CompletableFuture[]::new)).join();
                system.configs.get(Service.INGEST).put("hindsight.ingest.conflict-check-url",
                        system.url(Service.QUERY));
                system.ports.keySet().stream().filter(instance -> instance.service() == Service.INGEST)
                        .forEach(system::start);
                return system;
            } catch (RuntimeException e) {
                system.close();
                throw e;
            }
        }
    }

    private Map<String, String> config(Service service, Map<String, String> extra) {
        Map<String, String> config = new HashMap<>();
        switch (service) {
            case QUERY -> {
                config.put("hindsight.query.group", "system-query-" + run);
                // Every replica signs console cookies with the same key, so a browser signed in on one is on all.
                config.put("hindsight.console.cookie-secret", "system-test-console-cookie-secret-" + run);
                // RetentionIT: tenant-retained's sessions idle 20 s are erased, looked for every 2 s.
                config.put("hindsight.query.retention.sessions-by-tenant." + TestTenants.RETAINED.tenant(), "20s");
                config.put("hindsight.query.retention.sessions-every", "2s");
            }
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
        if (bootstrapServers != null) {
            config.put("kafka.bootstrap.servers", bootstrapServers);
        }
        if (service != Service.INGEST) {
            if (postgres != null) {
                String database = "hindsight_" + service.jarName();
                postgres.createDatabase(database);
                config.put("quarkus.datasource.reactive.url", postgres.reactiveUrl(database));
                config.put("quarkus.datasource.jdbc.url", postgres.jdbcUrl(database));
                config.put("quarkus.datasource.username", "postgres");
                config.put("quarkus.datasource.password", "");
            } else {
                TestDatabase database = TestDatabase.create("system_" + service.jarName());
                databases.add(database);
                config.put("quarkus.datasource.reactive.url", database.reactiveUrl());
                config.put("quarkus.datasource.jdbc.url", database.jdbcUrl());
                config.put("quarkus.datasource.username", TestDatabase.user());
                config.put("quarkus.datasource.password", TestDatabase.password());
            }
        }
        config.putAll(extra);
        return config;
    }

    /** Starts {@code instance} on its port (again, after {@link #kill}); returns once it is ready. */
    void start(Instance instance) {
        // The process name carries this system's run: another system's instance of the same name is not this one.
        PackagedService started = PackagedService.start(instance.service().jarName(), run + "-" + instance.name(),
                ports.get(instance), configs.get(instance.service()));
        synchronized (running) {
            running.put(instance, started);
        }
    }

    /** How long {@code instance} took from start to ready. */
    Duration restart(Instance instance) {
        long began = System.nanoTime();
        start(instance);
        return Duration.ofNanos(System.nanoTime() - began);
    }

    /** SIGKILL of {@code instance}. */
    void kill(Instance instance) {
        PackagedService process;
        synchronized (running) {
            process = running.remove(instance);
        }
        if (process == null) {
            throw new IllegalStateException(instance + " is not running");
        }
        process.kill();
    }

    /** Every instance of the system, running or not. */
    List<Instance> instances() {
        return List.copyOf(ports.keySet());
    }

    /** The URL of the first running instance of {@code service}. */
    String url(Service service) {
        synchronized (running) {
            return running.entrySet().stream().filter(e -> e.getKey().service() == service).findFirst()
                    .orElseThrow(() -> new IllegalStateException(service + " is not running")).getValue().url();
        }
    }

    /** The URL of {@code instance}, whether or not it runs now (it keeps its port across restarts). */
    String url(Instance instance) {
        return "http://127.0.0.1:" + ports.get(instance);
    }

    /** A JDBC connection to {@code service}'s database, as this system configured it. */
    java.sql.Connection connect(Service service) throws java.sql.SQLException {
        Map<String, String> config = configs.get(service);
        return java.sql.DriverManager.getConnection(config.get("quarkus.datasource.jdbc.url"),
                config.get("quarkus.datasource.username"), config.get("quarkus.datasource.password"));
    }

    /** A service's consumer group, as this system configured it. */
    String group(Service service) {
        return "system-" + service.jarName() + "-" + run;
    }

    /** The last lines of every running service's log, for a failure message. */
    String logs(int lines) {
        StringBuilder out = new StringBuilder();
        synchronized (running) {
            running.forEach((instance, process) -> out.append("\n--- ").append(instance).append(" ---\n")
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
        databases.forEach(TestDatabase::close);
        databases.clear();
    }
}
