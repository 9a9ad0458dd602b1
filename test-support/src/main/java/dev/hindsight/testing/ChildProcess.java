package dev.hindsight.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A process started by the tests (the registry, a packaged service), with its output in a log file and its PID in a
 * file, so that a test JVM killed without its shutdown hooks leaves nothing behind for long: the next run reaps it.
 */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;
    private final Path pidFile;

    private ChildProcess(String name, Process process, Path log, Path pidFile) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.pidFile = pidFile;
    }

    /** Starts {@code command} in {@code workDir}; stdout and stderr go to {@code <stateDir>/<name>.log}. */
    public static ChildProcess start(String name, List<String> command, Path workDir, Path stateDir) {
        return start(name, command, workDir, stateDir, java.util.Map.of());
    }

    /** {@link #start(String, List, Path, Path)} with {@code environment} added to the process's environment. */
    public static ChildProcess start(String name, List<String> command, Path workDir, Path stateDir,
            java.util.Map<String, String> environment) {
        try {
            Files.createDirectories(stateDir);
            Path log = stateDir.resolve(name + ".log");
            Path pidFile = stateDir.resolve(name + ".pid");
            reapStale(pidFile);
            ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            Files.writeString(pidFile, Long.toString(process.pid()));
            ChildProcess child = new ChildProcess(name, process, log, pidFile);
            Runtime.getRuntime().addShutdownHook(new Thread(child::close, "stop-" + name));
            return child;
        } catch (IOException e) {
            throw new IllegalStateException("Could not start " + name + ": " + e.getMessage(), e);
        }
    }

    /** Kills a process recorded by an earlier run that died before it could stop it. */
    private static void reapStale(Path pidFile) throws IOException {
        if (!Files.exists(pidFile)) {
            return;
        }
        String recorded = Files.readString(pidFile).trim();
        Files.deleteIfExists(pidFile);
        try {
            Optional<ProcessHandle> stale = ProcessHandle.of(Long.parseLong(recorded));
            // Only a java process is ours to kill; a recycled PID may now belong to anything else.
            stale.filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false))
                    .ifPresent(p -> {
                        p.destroy();
                        p.onExit().completeOnTimeout(p, 10, TimeUnit.SECONDS).join();
                        p.destroyForcibly();
                    });
        } catch (NumberFormatException ignored) {
            // Unreadable PID file: nothing to reap.
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** The last lines of the process's output, for failure messages. */
    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    public Path log() {
        return log;
    }

    /**
     * SIGKILL of the process and everything it started, at once: no shutdown hook runs, nothing is flushed, as when
     * a machine loses power. Returns once they are gone.
     */
    public void kill() {
        List<ProcessHandle> all = new java.util.ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroyForcibly);
        all.forEach(handle -> handle.onExit().completeOnTimeout(handle, 30, TimeUnit.SECONDS).join());
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(Duration.ofSeconds(15).toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        try {
            Files.deleteIfExists(pidFile);
        } catch (IOException ignored) {
            // Best effort; the next run reaps by PID anyway.
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
