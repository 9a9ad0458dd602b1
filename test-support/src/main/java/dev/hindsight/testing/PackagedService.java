package dev.hindsight.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;

/**
 * A packaged service ({@code target/quarkus-app/quarkus-run.jar}) running as its own process, configured for the test
 * infrastructure, as an operator would run it. For end-to-end tests across services.
 */
public final class PackagedService implements AutoCloseable {

    private final String name;
    private final ChildProcess process;
    private final String url;

    private PackagedService(String name, ChildProcess process, String url) {
        this.name = name;
        this.process = process;
        this.url = url;
    }

    /**
     * Starts the jar named by system property {@code hindsight.<name>.jar} with the test broker, registry and keys,
     * plus {@code config}; returns once {@code /q/health/ready} answers 200.
     */
    public static PackagedService start(String name, Map<String, String> config) {
        return start(name, name, Ports.free(), config);
    }

    /**
     * Starts the jar of service {@code name} as process {@code instance} (several replicas of one service each have
     * their own) on {@code port}; {@code config} may name another broker ({@code kafka.bootstrap.servers}) than the
     * shared test broker, which is then not started.
     */
    public static PackagedService start(String name, String instance, int port, Map<String, String> config) {
        if (Boolean.getBoolean("hindsight.test.openapi-contract")) {
            OpenApiContract.install();
            OpenApiContract.hold("http://127.0.0.1:" + port);
        }
        Path jar = Path.of(System.getProperty("hindsight." + name + ".jar", name + "-service/target/quarkus-app/"
                + "quarkus-run.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No packaged " + name + " at " + jar + "; build it first (mvn package)");
        }
        String bootstrap = config.containsKey("kafka.bootstrap.servers") ? config.get("kafka.bootstrap.servers")
                : TestKafka.bootstrapServers();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-Dquarkus.http.port=" + port,
                "-Dkafka.bootstrap.servers=" + bootstrap,
                "-Dmp.messaging.connector.smallrye-kafka.apicurio.registry.url=" + TestRegistry.url()));
        TestTenants.config().forEach((key, value) -> command.add("-D" + key + "=" + value));
        config.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add(jar.toString());
        // The master key in the environment, as a deployment gives it, never on the command line.
        ChildProcess process = ChildProcess.start("system-" + instance + "-" + ProcessHandle.current().pid(), command,
                jar.getParent(), TestRegistry.distDir().resolve("test-state"), TestCrypto.environment());
        PackagedService service = new PackagedService(instance, process, "http://127.0.0.1:" + port);
        service.awaitReady();
        return service;
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create(url + "/q/health/ready"))
                .timeout(Duration.ofSeconds(2)).build();
        try {
            Awaitility.await(name + " ready").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException(name + " exited:\n" + process.tail(60));
                        }
                        return http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new IllegalStateException(name + " not ready in 90 s:\n" + process.tail(60), e);
        }
    }

    /** Base URL, e.g. {@code http://127.0.0.1:41234}. */
    public String url() {
        return url;
    }

    public String logTail(int lines) {
        return process.tail(lines);
    }

    /** SIGKILL, as a crashed pod or machine: no shutdown, the consumer group is not told. */
    public void kill() {
        process.kill();
    }

    /**
     * SIGTERM, as Kubernetes stops a pod; returns once the process exited (after a SIGKILL if it had not within 15 s,
     * as a grace period ends).
     */
    public void terminate() {
        process.close();
    }

    @Override
    public void close() {
        process.close();
    }
}
