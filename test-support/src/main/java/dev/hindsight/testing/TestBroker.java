package dev.hindsight.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.awaitility.Awaitility;

/**
 * A real Apache Kafka broker (KRaft, one combined broker and controller) as a process of its own, run from the jars
 * the build fetched ({@code hindsight.test.kafka-libs}), for tests that kill it with SIGKILL and start it again on the
 * same ports and data, as an operator's machine would lose and recover it. The in-JVM {@link TestKafka} serves every
 * other test.
 */
public final class TestBroker implements AutoCloseable {

    private final Path dataDir;
    private final Path config;
    private final int port;
    private final String name;
    private ChildProcess process;

    private TestBroker(String name, Path dataDir, Path config, int port) {
        this.name = name;
        this.dataDir = dataDir;
        this.config = config;
        this.port = port;
    }

    /** Formats a fresh data directory under {@code workDir}, starts the broker and waits until it answers. */
    public static TestBroker start(String name, Path workDir) {
        try {
            Path dataDir = workDir.resolve(name + "-data");
            Files.createDirectories(dataDir);
            int port = Ports.free();
            int controllerPort = Ports.free();
            Path config = workDir.resolve(name + ".properties");
            Files.writeString(config, String.join("\n",
                    "process.roles=broker,controller",
                    "node.id=1",
                    "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                    "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                    "controller.listener.names=CONTROLLER",
                    "inter.broker.listener.name=PLAINTEXT",
                    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                    "log.dirs=" + dataDir,
                    "auto.create.topics.enable=false",
                    "offsets.topic.replication.factor=1",
                    "offsets.topic.num.partitions=3",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "group.initial.rebalance.delay.ms=0") + "\n");
            TestBroker broker = new TestBroker(name, dataDir, config, port);
            broker.format();
            broker.start();
            return broker;
        } catch (IOException e) {
            throw new IllegalStateException("Could not prepare the broker's files: " + e, e);
        }
    }

    private void format() {
        try {
            Process format = new ProcessBuilder(java("kafka.tools.StorageTool", "format", "-c", config.toString(),
                    "-t", "hindsight-test-" + Long.toString(System.nanoTime(), 36)))
                    .redirectErrorStream(true).start();
            String output = new String(format.getInputStream().readAllBytes());
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                throw new IllegalStateException("Could not format the broker's storage:\n" + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not format the broker's storage: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the broker (again, after {@link #kill}) on its ports and data; returns once it answers. */
    public void start() {
        process = ChildProcess.start(name, java("kafka.Kafka", config.toString()), dataDir.getParent(),
                dataDir.getParent());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000))) {
            Awaitility.await(name + " ready").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions().until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException(name + " exited:\n" + process.tail(40));
                        }
                        return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == 1;
                    });
        }
    }

    /** SIGKILL: no controlled shutdown, no flush; what is not on disk is gone, as when a machine loses power. */
    public void kill() {
        process.kill();
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    private static List<String> java(String mainClass, String... arguments) {
        String libs = System.getProperty("hindsight.test.kafka-libs");
        if (libs == null || !Files.isDirectory(Path.of(libs))) {
            throw new IllegalStateException("No Kafka broker jars at hindsight.test.kafka-libs=" + libs
                    + "; the build fetches them (module deploy/local)");
        }
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xms256m", "-Xmx512m"));
        String logging = System.getProperty("hindsight.test.kafka-logging");
        if (logging != null) {
            command.add("-Dlog4j2.configurationFile=" + logging);
        }
        command.addAll(List.of("-cp", libs + "/*", mainClass));
        command.addAll(List.of(arguments));
        return command;
    }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }
}
