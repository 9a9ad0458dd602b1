package dev.hindsight.testing;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.platform.registry.SchemaRegistrar;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real Apicurio Registry (in-memory storage) as a child JVM, shared by every test of the JVM. Its distribution is
 * the {@code apicurio-registry-app} archive Maven downloaded; it is unpacked once under {@code hindsight.test.dist-dir}.
 */
public final class TestRegistry {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static ChildProcess process;
    private static String url;
    private static boolean sourceSchemasRegistered;

    private TestRegistry() {
    }

    /** Starts the registry on first use and returns its core API v3 URL. */
    public static synchronized String url() {
        if (process == null || !process.isAlive()) {
            start();
        }
        return url;
    }

    /**
     * Registers every source topic's schema as ingest-service does at start-up, so that a test of a consuming service
     * can publish events without starting ingest.
     */
    public static synchronized void registerSourceSchemas() {
        if (!sourceSchemasRegistered) {
            SchemaRegistrar registrar = new SchemaRegistrar(url());
            for (HindsightTopic topic : HindsightTopic.values()) {
                registrar.register("default", topic.valueArtifactId(), topic.valueSchema());
            }
            sourceSchemasRegistered = true;
        }
    }

    private static void start() {
        Instance shared = launch("test-registry-" + ProcessHandle.current().pid(), Map.of(), Map.of());
        process = shared.process();
        url = shared.url();
        sourceSchemasRegistered = false;
    }

    /**
     * A registry of the test's own, with extra system properties (e.g. SQL storage on a test database), stopped by
     * {@link Instance#close()}.
     */
    public static Instance startPrivate(String name, Map<String, String> properties) {
        return startPrivate(name, properties, Map.of());
    }

    /** {@link #startPrivate(String, Map)} with environment variables too (as a Kubernetes Deployment sets them). */
    public static Instance startPrivate(String name, Map<String, String> properties, Map<String, String> environment) {
        return launch("test-registry-" + name + "-" + ProcessHandle.current().pid(), properties, environment);
    }

    /** A running registry: its core API v3 URL and its process. */
    public record Instance(String url, ChildProcess process) implements AutoCloseable {
        @Override
        public void close() {
            process.close();
        }
    }

    private static Instance launch(String name, Map<String, String> properties, Map<String, String> environment) {
        Path runner = unpackedRunner();
        int port = Ports.free();
        Path stateDir = distDir().resolve("test-state");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.log.level=WARN"));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", runner.toString()));
        ChildProcess child = ChildProcess.start(name, command, runner.getParent(), stateDir, environment);
        String base = "http://127.0.0.1:" + port;
        try {
            awaitReady(child, base + "/apis/registry/v3/system/info");
        } catch (RuntimeException e) {
            child.close();
            throw e;
        }
        return new Instance(base + "/apis/registry/v3", child);
    }

    private static void awaitReady(ChildProcess process, String infoUrl) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Apicurio Registry exited during start-up:\n" + process.tail(40));
            }
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create(infoUrl))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet; poll again.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for the registry", e);
            }
            process.log(); // keep the handle reachable for diagnostics
            try {
                // Polling an external process's HTTP port; there is no event to wait on.
                TimeUnit.MILLISECONDS.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for the registry", e);
            }
        }
        throw new IllegalStateException("Apicurio Registry not ready after " + READY_TIMEOUT.toSeconds() + " s:\n"
                + process.tail(40));
    }

    /** The runner jar, unpacking the distribution archive under a file lock the first time. */
    static Path unpackedRunner() {
        String archiveProperty = System.getProperty("hindsight.test.registry-archive");
        if (archiveProperty == null) {
            throw new IllegalStateException("System property hindsight.test.registry-archive is not set; run tests through "
                    + "Maven (the parent pom sets it) or point it at apicurio-registry-app-<version>-all.tar.gz");
        }
        Path archive = Paths.get(archiveProperty);
        if (!Files.isRegularFile(archive)) {
            throw new IllegalStateException("Registry distribution not found at " + archive + "; building the test-support module "
                    + "(mvn -pl test-support install) copies it there");
        }
        String name = archive.getFileName().toString().replace("-all.tar.gz", "");
        Path target = distDir().resolve(name);
        Path runner = target.resolve(name + "-runner.jar");
        try {
            Files.createDirectories(distDir());
            try (FileChannel channel = FileChannel.open(distDir().resolve(name + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock ignored = channel.lock()) {
                Path done = target.resolve(".unpacked");
                if (!Files.exists(done)) {
                    Files.createDirectories(target);
                    Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", target.toString())
                            .redirectErrorStream(true).start();
                    String output = new String(tar.getInputStream().readAllBytes());
                    if (tar.waitFor() != 0) {
                        throw new IllegalStateException("Could not unpack " + archive + ": " + output);
                    }
                    Files.writeString(done, archive.toString());
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not unpack the registry: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while unpacking the registry", e);
        }
        if (!Files.isRegularFile(runner)) {
            throw new IllegalStateException("No runner jar at " + runner);
        }
        return runner;
    }

    static Path distDir() {
        return Paths.get(System.getProperty("hindsight.test.dist-dir",
                Paths.get(System.getProperty("java.io.tmpdir"), "hindsight-dist").toString()));
    }
}
