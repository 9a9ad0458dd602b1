package dev.hindsight.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pin-images.sh turns what a push reported into the prod overlay's image references: each service runs the digest Jib
 * wrote for it, from the operator's repository, and the overlay still keeps every invariant.
 */
class PinImagesTest {

    @TempDir
    Path copy;

    @Test
    void pinsEachServiceToTheDigestItsPushReported() throws Exception {
        Path overlay = copyOfTheManifests();
        Map<String, String> pushed = new HashMap<>();
        int n = 1;
        for (String svc : Repo.SERVICES) {
            String digest = "sha256:" + String.valueOf(n++).repeat(64);
            pushed.put(svc, digest);
            Path target = Files.createDirectories(copy.resolve(svc).resolve("target"));
            Files.writeString(target.resolve("jib-image.digest"), digest);
        }

        Result result = pin("registry.acme.test/agents", overlay);

        assertThat(result.exit()).as(result.output()).isZero();
        List<Manifest> docs = StrictParser.parse(render(overlay));
        for (String svc : Repo.SERVICES) {
            String image = docs.stream().filter(m -> m.is("Deployment") && m.name().equals(svc)).findFirst().orElseThrow()
                    .raw().path("spec").path("template").path("spec").path("containers").get(0).path("image").asText();
            assertThat(image).isEqualTo("registry.acme.test/agents/" + svc + "@" + pushed.get(svc));
        }
        assertThat(new Invariants("prod", docs, Rendered.operatorSecrets(), Repo.root()).check()).isEmpty();
    }

    @Test
    void changesNothingWhenAServiceWasNotPushed() throws Exception {
        Path overlay = copyOfTheManifests();
        for (String svc : Repo.SERVICES.subList(0, 3)) {
            Path target = Files.createDirectories(copy.resolve(svc).resolve("target"));
            Files.writeString(target.resolve("jib-image.digest"), "sha256:" + "a".repeat(64));
        }
        String before = Files.readString(overlay.resolve("kustomization.yaml"));

        Result result = pin("registry.acme.test/agents", overlay);

        assertThat(result.exit()).isNotZero();
        assertThat(result.output()).contains("query-service/target/jib-image.digest: push query-service first");
        assertThat(Files.readString(overlay.resolve("kustomization.yaml"))).isEqualTo(before);
    }

    /** deploy/k8s's base, components and overlays, copied under {@code copy}; returns the copy's prod overlay. */
    private Path copyOfTheManifests() throws IOException {
        Path from = Repo.k8s();
        Path to = copy.resolve("deploy/k8s");
        for (String dir : List.of("base", "components", "overlays")) {
            try (Stream<Path> files = Files.walk(from.resolve(dir))) {
                for (Path p : files.sorted(Comparator.naturalOrder()).toList()) {
                    Path target = to.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(p, target);
                    }
                }
            }
        }
        return to.resolve("overlays/prod");
    }

    private record Result(int exit, String output) {
    }

    private Result pin(String prefix, Path overlay) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", Repo.k8s().resolve("pin-images.sh").toString(), prefix,
                overlay.toString()).redirectErrorStream(true);
        builder.environment().put("HINDSIGHT_BUILD_ROOT", copy.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }

    private static String render(Path overlay) throws Exception {
        Process process = new ProcessBuilder("kubectl", "kustomize", overlay.toString()).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(err).isZero();
        return out;
    }
}
