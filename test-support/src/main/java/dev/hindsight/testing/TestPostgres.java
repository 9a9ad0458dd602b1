package dev.hindsight.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A PostgreSQL server of the test's own: a fresh cluster ({@code initdb}) in a directory of the test, on a free port,
 * started with the machine's PostgreSQL binaries, so that a test can kill it with SIGKILL and start it again (crash
 * recovery from its WAL) without touching the machine's server every other test uses. Extensions installed for the
 * machine's PostgreSQL (pgvector) are there too. As root, the server runs as the {@code postgres} user, as PostgreSQL
 * requires.
 */
public final class TestPostgres implements AutoCloseable {

    private final Path dataDir;
    private final int port;
    private ChildProcess process;

    private TestPostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    /**
     * A new cluster in a directory of its own under the system's temporary directory (the {@code postgres} user must
     * be able to reach it, which a checkout under a private directory does not allow), started; superuser
     * {@code postgres}, trust authentication on loopback. {@link #close} removes it.
     */
    public static TestPostgres create() {
        Path workDir;
        try {
            workDir = Files.createTempDirectory("hindsight-test-postgres-");
            Files.setPosixFilePermissions(workDir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            if (asRoot()) {
                run(List.of("chown", "postgres:postgres", workDir.toString()));
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not create a directory for PostgreSQL: " + e, e);
        }
        Path dataDir = workDir.resolve("data");
        try {
            run(asPostgres(List.of(bin("initdb"), "-D", dataDir.toString(), "-U", "postgres", "--auth=trust",
                    "--no-sync", "-E", "UTF8", "--locale=C")));
        } catch (IOException e) {
            throw new IllegalStateException("Could not create a PostgreSQL cluster: " + e, e);
        }
        TestPostgres postgres = new TestPostgres(dataDir, Ports.free());
        postgres.start();
        return postgres;
    }

    /** Starts the server (again, after {@link #kill}: with crash recovery) and returns once it takes connections. */
    public void start() {
        process = ChildProcess.start("test-postgres-" + port, asPostgres(List.of(bin("postgres"), "-D",
                dataDir.toString(), "-p", Integer.toString(port), "-h", "127.0.0.1", "-k", dataDir.toString(),
                "-c", "fsync=on", "-c", "max_connections=200", "-c", "shared_buffers=256MB")),
                dataDir.getParent(), dataDir.getParent());
        Awaitility.await("PostgreSQL on " + port).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("PostgreSQL exited:\n" + process.tail(30));
                    }
                    try (Connection ignored = TestDatabase.connect(jdbcUrl("postgres"), "postgres", "")) {
                        return true;
                    }
                });
    }

    /** SIGKILL of the server and every backend: a crash, recovered from the WAL at the next start. */
    public void kill() {
        process.kill();
    }

    /** Creates database {@code name} (with the vector extension available to it). */
    public void createDatabase(String name) {
        try (Connection connection = TestDatabase.connect(jdbcUrl("postgres"), "postgres", "")) {
            connection.createStatement().execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create database " + name + ": " + e, e);
        }
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public String reactiveUrl(String database) {
        return "postgresql://127.0.0.1:" + port + "/" + database;
    }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
        try (var files = Files.walk(dataDir.getParent())) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            // A temporary directory: the system cleans it up eventually.
        }
    }

    private static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static List<String> asPostgres(List<String> command) {
        if (!asRoot()) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** A binary of the machine's newest PostgreSQL ({@code /usr/lib/postgresql/<version>/bin}, as Debian installs it). */
    private static String bin(String name) {
        try (var versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            Path newest = versions.filter(v -> Files.isExecutable(v.resolve("bin").resolve(name)))
                    .max(java.util.Comparator.comparingInt(v -> Integer.parseInt(v.getFileName().toString())))
                    .orElseThrow(() -> new IllegalStateException("No PostgreSQL " + name + " under /usr/lib/postgresql"));
            return newest.resolve("bin").resolve(name).toString();
        } catch (IOException e) {
            throw new IllegalStateException("No PostgreSQL binaries under /usr/lib/postgresql: " + e, e);
        }
    }

    private static void run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
