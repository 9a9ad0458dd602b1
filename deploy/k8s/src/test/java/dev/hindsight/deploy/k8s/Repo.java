package dev.hindsight.deploy.k8s;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Where the repository and its manifests are, and the two commands the checks run: kustomize and create-secrets. */
final class Repo {

    static final List<String> SERVICES = List.of("ingest-service", "evaluation-service", "memory-service",
            "query-service");

    private Repo() {
    }

    /** The repository root: two levels above this module (given by Maven), or found upwards from the working dir. */
    static Path root() {
        String moduleDir = System.getProperty("hindsight.k8s.dir");
        Path start = moduleDir != null ? Path.of(moduleDir) : Path.of("").toAbsolutePath();
        for (Path p = start.toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("deploy/k8s/base")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("No repository root (with deploy/k8s/base) above " + start);
    }

    static Path k8s() {
        return root().resolve("deploy/k8s");
    }

    /** The project version, which every service image must be tagged with. */
    static String version() {
        String version = System.getProperty("hindsight.version");
        if (version == null) {
            throw new IllegalStateException("system property hindsight.version is not set (run through Maven)");
        }
        return version;
    }

    /** {@code kubectl kustomize deploy/k8s/overlays/<overlay>}: the documents an operator would apply. */
    static String render(String overlay) {
        return run(List.of("kubectl", "kustomize", k8s().resolve("overlays").resolve(overlay).toString()));
    }

    /** What {@code create-secrets.sh} prints: the Secrets an operator creates before applying an overlay. */
    static String operatorSecrets() {
        return run(List.of("bash", k8s().resolve("create-secrets.sh").toString(), "--tenant", "ci"),
                Map.of("HINDSIGHT_BACKUP_ACCESS_KEY_ID", "ci-access-key", "HINDSIGHT_BACKUP_SECRET_ACCESS_KEY", "ci-secret"));
    }

    private static String run(List<String> command) {
        return run(command, Map.of());
    }

    private static String run(List<String> command, Map<String, String> environment) {
        try {
            Path err = Files.createTempFile("hindsight-k8s", ".err");
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(err.toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in 60 s");
            }
            String stderr = Files.readString(err);
            Files.deleteIfExists(err);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue()
                        + "):\n" + stderr);
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("Could not run " + String.join(" ", command)
                    + " (kubectl with kustomize and bash must be on the PATH)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted running " + command, e);
        }
    }
}
