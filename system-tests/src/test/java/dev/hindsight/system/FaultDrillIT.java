package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.system.RunningSystem.Instance;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestBroker;
import dev.hindsight.testing.TestPostgres;
import dev.hindsight.testing.TestTenants;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * The fault drill: the whole system under a steady load while each component is killed with SIGKILL and started
 * again (a query-service replica while another runs, ingest, the broker, PostgreSQL alone while projections write,
 * the broker and PostgreSQL together, evaluation, memory). Afterwards every acknowledged event must be in every read
 * model exactly once (query's messages and their counters, evaluation's summaries as query shows them, memory's
 * tracked turns), nothing unacknowledged may appear twice, every consumer group's lag must return to zero, and nothing
 * may have been dead-lettered. Everything runs on a broker and a PostgreSQL of the drill's own, so that killing them
 * harms no other test.
 *
 * <p>Timings (how long partitions of a killed replica wait, how long a restarted service takes to be ready) are
 * measured and written to {@code target/drill-figures.md}, never asserted. The short drill runs in every build;
 * {@code bench/drill.sh} runs the long one ({@code -Dhindsight.drill.long=true}).
 */
class FaultDrillIT {

    private static final boolean LONG = Boolean.getBoolean("hindsight.drill.long");
    private static final int RATE = Integer.getInteger("hindsight.drill.events-per-second", LONG ? 1200 : 300);
    private static final int SESSIONS = Integer.getInteger("hindsight.drill.sessions", LONG ? 3000 : 300);
    /** Seconds of undisturbed load between two faults. */
    private static final int BETWEEN = Integer.getInteger("hindsight.drill.between-seconds", LONG ? 30 : 5);
    private static final int PARTITIONS = 6;
    private static final Duration RECOVERY = Duration.ofMinutes(5);

    private final String run = Long.toString(System.currentTimeMillis(), 36);
    private final Wire wire = new Wire(TestTenants.TENANT_A.bearer());
    private final List<String> figures = new ArrayList<>();
    private int probes;

    @Test
    void everyAcknowledgedEventIsInEveryReadModelExactlyOnceAfterEveryCrash() throws Exception {
        Path work = Path.of("target", "drill-" + run).toAbsolutePath();
        Files.createDirectories(work);
        try (TestPostgres postgres = TestPostgres.create();
             TestBroker broker = TestBroker.start("drill-broker-" + run, work);
             RunningSystem system = consumerSettings(RunningSystem.builder().broker(broker.bootstrapServers())
                     .postgres(postgres).replicas(Service.QUERY, 2)).start()) {
            Map<TopicPartition, Long> deadLettersBefore = DeadLetters.count(broker.bootstrapServers());
            Instance query1 = new Instance(Service.QUERY, 1);
            Instance query2 = new Instance(Service.QUERY, 2);
            Instant began = Instant.now();
            SteadyLoad load = SteadyLoad.start(system.url(Service.INGEST), "drill-" + run, SESSIONS, RATE);
            try {
                steady(load);
                killReplica(system, query1, query2);
                steady(load);
                killReplica(system, query2, query1);
                if (LONG) {
                    steady(load);
                    killReplica(system, query1, query2);
                }
                for (int i = 0; i < (LONG ? 2 : 1); i++) {
                    steady(load);
                    killAndRestart(system, new Instance(Service.INGEST, 1));
                }
                steady(load);
                killBroker(system, broker, null);
                steady(load);
                killPostgres(system, postgres, broker, deadLettersBefore);
                steady(load);
                killBroker(system, broker, postgres);
                steady(load);
                killAndRestart(system, new Instance(Service.EVALUATION, 1));
                steady(load);
                killAndRestart(system, new Instance(Service.MEMORY, 1));
                steady(load);
            } finally {
                load.close();
            }
            Duration loaded = Duration.between(began, Instant.now());
            assertThat(load.failure()).as("the load itself").isNull();
            figures.add(String.format("| load | %d events acknowledged in %d s (%d requests not acknowledged) | |",
                    load.acknowledgedEvents(), loaded.toSeconds(), load.refusedRequests()));

            long settling = System.nanoTime();
            awaitNoLag(broker, system);
            figures.add(String.format("| after the last fault | every consumer group's lag back to zero | %.1f s |",
                    (System.nanoTime() - settling) / 1e9));
            verifyReadModels(postgres, load);
            assertThat(DeadLetters.since(deadLettersBefore, broker.bootstrapServers())).as("dead-lettered").isEmpty();
        } finally {
            writeFigures();
        }
    }

    /**
     * Consumer settings other than the services' own, to measure them in the same drill
     * ({@code -Dhindsight.drill.consumer.session.timeout.ms=45000}: Kafka's default).
     */
    private static RunningSystem.Builder consumerSettings(RunningSystem.Builder builder) {
        Map<String, String> settings = new HashMap<>();
        System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("hindsight.drill.consumer."))
                .forEach(n -> settings.put("mp.messaging.connector.smallrye-kafka."
                        + n.substring("hindsight.drill.consumer.".length()), System.getProperty(n)));
        for (Service service : List.of(Service.QUERY, Service.EVALUATION, Service.MEMORY)) {
            builder.config(service, settings);
        }
        return builder;
    }

    // --- faults -----------------------------------------------------------------------------------------------------

    /** Lets the load run undisturbed for a while: waits until it has had that many more events acknowledged. */
    private static void steady(SteadyLoad load) {
        long target = load.acknowledgedEvents() + (long) RATE * BETWEEN / 2;
        await("the load to make progress").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                .until(() -> load.acknowledgedEvents() >= target || load.failure() != null);
    }

    /**
     * Kills one query-service replica while {@code survivor} runs: its partitions must move to the survivor once the
     * group notices. Measured: from the kill until messages written afterwards to every partition are readable.
     */
    private void killReplica(RunningSystem system, Instance killed, Instance survivor) {
        long start = System.nanoTime();
        system.kill(killed);
        List<String> written = probeEveryPartition(system);
        awaitVisible(system.url(survivor), written);
        figures.add(String.format("| SIGKILL %s, %s running | its partitions resumed (a message to every partition "
                + "readable) | %.1f s |", killed, survivor, (System.nanoTime() - start) / 1e9));
        Duration ready = system.restart(killed);
        figures.add(String.format("| %s started again | ready | %.1f s |", killed, ready.toMillis() / 1e3));
    }

    private void killAndRestart(RunningSystem system, Instance instance) {
        long start = System.nanoTime();
        system.kill(instance);
        Duration ready = system.restart(instance);
        figures.add(String.format("| SIGKILL %s, started again | ready | %.1f s |", instance, ready.toMillis() / 1e3));
        List<String> written = probeEveryPartition(system);
        awaitVisible(system.url(Service.QUERY), written);
        figures.add(String.format("| | a message to every partition readable, from the kill | %.1f s |",
                (System.nanoTime() - start) / 1e9));
    }

    /** SIGKILL of the broker (and of PostgreSQL with it when given), both started again at once. */
    private void killBroker(RunningSystem system, TestBroker broker, TestPostgres postgres) {
        long start = System.nanoTime();
        broker.kill();
        if (postgres != null) {
            postgres.kill();
            postgres.start();
        }
        broker.start();
        String what = postgres == null ? "the broker" : "the broker and PostgreSQL together";
        figures.add(String.format("| SIGKILL %s, started again | listening | %.1f s |", what,
                (System.nanoTime() - start) / 1e9));
        List<String> written = probeEveryPartition(system);
        awaitVisible(system.url(Service.QUERY), written);
        figures.add(String.format("| | a message to every partition acknowledged and readable, from the kill | %.1f s |",
                (System.nanoTime() - start) / 1e9));
    }

    /**
     * SIGKILL of PostgreSQL alone while the load goes on: the projections' transactions die with it. It stays down
     * until a projection has run into it (an apply failed, so a batch was being applied when the database went away
     * and offsets of what was not applied must not move; or, were the failure mistaken for bad data, something was
     * dead-lettered), then starts again with crash recovery. Every event must be applied once the database is back,
     * none dead-lettered (checked at the end).
     */
    private void killPostgres(RunningSystem system, TestPostgres postgres, TestBroker broker,
            Map<TopicPartition, Long> deadLettersBefore) {
        long failuresBefore = applyFailures(system);
        long start = System.nanoTime();
        postgres.kill();
        await("a projection to run into the killed database").atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(100)).until(() -> applyFailures(system) > failuresBefore
                        || !DeadLetters.since(deadLettersBefore, broker.bootstrapServers()).isEmpty());
        long down = System.nanoTime();
        postgres.start();
        figures.add(String.format("| SIGKILL PostgreSQL alone, started again once a projection ran into it (%.1f s "
                + "later) | taking connections | %.1f s |", (down - start) / 1e9, (System.nanoTime() - start) / 1e9));
        List<String> written = probeEveryPartition(system);
        awaitVisible(system.url(Service.QUERY), written);
        figures.add(String.format("| | a message to every partition readable, from the kill | %.1f s |",
                (System.nanoTime() - start) / 1e9));
    }

    /**
     * Failed attempts to apply a batch, over every consumer instance ({@code hindsight_consumer_apply_failures_total},
     * all topics); an instance that does not answer counts nothing.
     */
    private long applyFailures(RunningSystem system) {
        long failures = 0;
        for (Instance instance : system.instances()) {
            if (instance.service() == Service.INGEST) {
                continue;
            }
            Wire.Answer metrics;
            try {
                metrics = wire.get(system.url(instance) + "/q/metrics");
            } catch (RuntimeException unreachable) {
                continue;
            }
            for (String line : metrics.text().split("\n")) {
                if (line.startsWith("hindsight_consumer_apply_failures_total{")) {
                    failures += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        return failures;
    }

    /**
     * One new message to each partition of the reasoning topic, retried until ingest acknowledges it; returns the
     * sessions written.
     */
    private List<String> probeEveryPartition(RunningSystem system) {
        Map<Integer, String> byPartition = new TreeMap<>();
        while (byPartition.size() < PARTITIONS) {
            String session = "probe-" + run + "-" + probes++;
            int partition = Utils.toPositive(Utils.murmur2(session.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
            byPartition.putIfAbsent(partition, session);
        }
        for (String session : byPartition.values()) {
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.putArray("messages").addObject().put("message_index", 0).put("role", "user")
                    .put("content", "probe");
            await("ingest to acknowledge " + session).atMost(RECOVERY).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions().until(() -> wire.post(system.url(Service.INGEST) + "/v1/sessions/" + session
                            + "/messages", body, false).status() == 202);
        }
        return List.copyOf(byPartition.values());
    }

    private void awaitVisible(String queryUrl, List<String> sessions) {
        Set<String> waiting = new HashSet<>(sessions);
        await("messages readable from " + queryUrl).atMost(RECOVERY).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions().until(() -> {
                    waiting.removeIf(session -> wire.get(queryUrl + "/v1/sessions/" + session).status() == 200);
                    return waiting.isEmpty();
                });
    }

    // --- afterwards -------------------------------------------------------------------------------------------------

    private static void awaitNoLag(TestBroker broker, RunningSystem system) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers()))) {
            for (Service service : List.of(Service.QUERY, Service.EVALUATION, Service.MEMORY)) {
                String group = system.group(service);
                await(group + " to catch up").atMost(RECOVERY).pollInterval(Duration.ofMillis(500))
                        .untilAsserted(() -> assertThat(ConsumerLag.behind(admin, group)).as("lag of " + group).isEmpty());
            }
        }
    }

    /**
     * Every acknowledged message is in query's read model, counted once on its session; nothing unacknowledged is
     * there that the load did not send; evaluation's summary of every assistant message is there; memory-service
     * tracks exactly the same messages.
     */
    private static void verifyReadModels(TestPostgres postgres, SteadyLoad load) throws SQLException {
        Map<String, Set<Integer>> stored = new HashMap<>();
        Map<String, Integer> counted = new HashMap<>();
        Set<String> summarised = new HashSet<>();
        Set<String> assistants = new HashSet<>();
        try (Connection query = DriverManager.getConnection(postgres.jdbcUrl("hindsight_query"), "postgres", "");
             Statement statement = query.createStatement()) {
            String rm;
            try (ResultSet current = statement.executeQuery(
                    "SELECT generation FROM read_model_generation WHERE state = 'current'")) {
                assertThat(current.next()).as("a current read-model generation").isTrue();
                rm = "rm_" + current.getInt(1);
            }
            try (ResultSet rows = statement.executeQuery("SELECT session_id, message_index, role FROM " + rm
                    + ".message WHERE session_id LIKE 'drill-%'")) {
                while (rows.next()) {
                    stored.computeIfAbsent(rows.getString(1), s -> new HashSet<>()).add(rows.getInt(2));
                    if (rows.getString(3).equals("assistant")) {
                        assistants.add(rows.getString(1) + "/" + rows.getInt(2));
                    }
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT session_id, total_messages FROM " + rm
                    + ".session WHERE session_id LIKE 'drill-%'")) {
                while (rows.next()) {
                    counted.put(rows.getString(1), rows.getInt(2));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT session_id, message_index FROM " + rm
                    + ".message_summary WHERE session_id LIKE 'drill-%' AND status = 'completed'")) {
                while (rows.next()) {
                    summarised.add(rows.getString(1) + "/" + rows.getInt(2));
                }
            }
        }
        Map<String, Set<Integer>> tracked = new HashMap<>();
        try (Connection memory = DriverManager.getConnection(postgres.jdbcUrl("hindsight_memory"), "postgres", "");
             Statement statement = memory.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT session_id, message_index FROM tracked_turn WHERE session_id LIKE 'drill-%'")) {
            while (rows.next()) {
                tracked.computeIfAbsent(rows.getString(1), s -> new HashSet<>()).add(rows.getInt(2));
            }
        }
        List<String> problems = new ArrayList<>();
        load.acknowledged().forEach((session, acknowledged) -> {
            Set<Integer> inQuery = stored.getOrDefault(session, Set.of());
            Set<Integer> missing = new HashSet<>(acknowledged);
            missing.removeAll(inQuery);
            if (!missing.isEmpty()) {
                problems.add(session + ": acknowledged but not in query's read model: " + missing);
            }
            Set<Integer> unknown = new HashSet<>(inQuery);
            unknown.removeAll(acknowledged);
            unknown.removeAll(load.unconfirmed().get(session));
            if (!unknown.isEmpty()) {
                problems.add(session + ": in query's read model but never sent: " + unknown);
            }
            if (counted.getOrDefault(session, 0) != inQuery.size()) {
                problems.add(session + ": total_messages " + counted.get(session) + " for " + inQuery.size()
                        + " messages");
            }
            if (!tracked.getOrDefault(session, Set.of()).equals(inQuery)) {
                Set<Integer> onlyQuery = new HashSet<>(inQuery);
                onlyQuery.removeAll(tracked.getOrDefault(session, Set.of()));
                problems.add(session + ": memory-service tracks other messages than query shows; missing in memory "
                        + onlyQuery);
            }
        });
        Set<String> unsummarised = new HashSet<>(assistants);
        unsummarised.removeAll(summarised);
        if (!unsummarised.isEmpty()) {
            problems.add(unsummarised.size() + " assistant messages without evaluation's summary, e.g. "
                    + unsummarised.stream().limit(5).toList());
        }
        assertThat(problems).as(problems.size() + " problems after the drill").isEmpty();
    }

    private void writeFigures() {
        try {
            List<String> out = new ArrayList<>(List.of(
                    "Fault drill (" + (LONG ? "long" : "short") + "), " + Instant.now() + ", " + RATE
                            + " events/s offered over " + SESSIONS + " sessions",
                    "",
                    "| fault | measured | time |",
                    "|---|---|---|"));
            out.addAll(figures);
            Files.write(Path.of("target", "drill-figures.md"), out);
            System.out.println(String.join("\n", out));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
