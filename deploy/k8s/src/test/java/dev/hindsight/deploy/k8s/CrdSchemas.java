package dev.hindsight.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The custom resources no Java model describes (CloudNativePG, the Barman Cloud plugin, KEDA, the Prometheus Operator),
 * checked against their operators' published CRD schemas by {@code deploy/k8s/schemas/validate.mjs}: schema types,
 * enums and patterns, and, as an API server with strict field validation does, every field the CRD does not list.
 */
final class CrdSchemas {

    private static final ObjectMapper JSON = new ObjectMapper();

    private CrdSchemas() {
    }

    /** Every problem found in the documents, one line each ("Kind/name: path: message"); empty when none. */
    static List<String> problems(List<JsonNode> documents) {
        Path dir = Repo.k8s().resolve("schemas");
        if (!Files.isDirectory(dir.resolve("node_modules"))) {
            throw new IllegalStateException("The CRD schemas are not installed: run deploy/k8s/schemas/ensure.sh "
                    + "(npm ci of deploy/k8s/schemas; .ci/run does it)");
        }
        try {
            Path input = Files.createTempFile("hindsight-crds", ".json");
            Path err = Files.createTempFile("hindsight-crds", ".err");
            try {
                JSON.writeValue(input.toFile(), documents);
                Process node = new ProcessBuilder("node", dir.resolve("validate.mjs").toString(), input.toString())
                        .redirectError(err.toFile()).start();
                String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!node.waitFor(120, TimeUnit.SECONDS)) {
                    node.destroyForcibly();
                    throw new IllegalStateException("validate.mjs did not finish in 120 s");
                }
                int exit = node.exitValue();
                if (exit != 0 && exit != 1) {
                    throw new IllegalStateException("validate.mjs failed (exit " + exit + "): " + Files.readString(err)
                            + out);
                }
                List<String> problems = Arrays.stream(out.split("\n")).filter(l -> !l.isBlank()).toList();
                if (exit == 1 && problems.isEmpty()) {
                    throw new IllegalStateException("validate.mjs reported failure without a problem: "
                            + Files.readString(err));
                }
                return problems;
            } finally {
                Files.deleteIfExists(input);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not run node (Node.js must be on the PATH): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted checking CRD schemas", e);
        }
    }

    /** The documents of an overlay that are custom resources described by a published CRD schema. */
    static List<JsonNode> customResources(List<Manifest> manifests) {
        return manifests.stream().filter(m -> StrictParser.GENERIC.contains(m.apiVersion() + "/" + m.kind()))
                .map(Manifest::raw).toList();
    }
}
