package dev.hindsight.deploy.k8s;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Each overlay rendered once per test JVM (kustomize is the slow part), and the operator's Secrets. */
final class Rendered {

    private static final Map<String, String> OVERLAYS = new ConcurrentHashMap<>();
    private static final Map<String, List<Manifest>> PARSED = new ConcurrentHashMap<>();
    private static volatile List<Manifest> secrets;

    private Rendered() {
    }

    static String yaml(String overlay) {
        return OVERLAYS.computeIfAbsent(overlay, Repo::render);
    }

    /** The overlay strictly parsed (once). */
    static List<Manifest> manifests(String overlay) {
        return PARSED.computeIfAbsent(overlay, o -> StrictParser.parse(yaml(o)));
    }

    static List<Manifest> operatorSecrets() {
        if (secrets == null) {
            secrets = StrictParser.parse(Repo.operatorSecrets());
        }
        return secrets;
    }

    static List<String> violations(String overlay, List<Manifest> docs) {
        return new Invariants(overlay, docs, operatorSecrets(), Repo.root()).check();
    }
}
