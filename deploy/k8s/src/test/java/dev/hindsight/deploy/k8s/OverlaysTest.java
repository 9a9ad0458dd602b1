package dev.hindsight.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each overlay renders with kustomize, binds strictly to the Kubernetes object model and keeps every invariant. */
class OverlaysTest {

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void rendersIntoTheObjectModelAndKeepsEveryInvariant(String overlay) {
        List<Manifest> docs = Rendered.manifests(overlay);

        List<String> violations = Rendered.violations(overlay, docs);

        assertThat(violations).as("deploy/k8s/overlays/%s breaks what an operator relies on:%n  %s", overlay,
                String.join(System.lineSeparator() + "  ", violations)).isEmpty();
        Set<String> kinds = docs.stream().map(Manifest::kind).collect(Collectors.toSet());
        assertThat(kinds).as("kinds rendered by %s", overlay).contains("Kafka", "KafkaNodePool", "KafkaTopic",
                "KafkaUser", "Cluster", "Database", "Deployment", "Service", "ConfigMap", "NetworkPolicy",
                "ScaledObject", "TriggerAuthentication", "HorizontalPodAutoscaler");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void keepsNoCredentialInTheManifests(String overlay) {
        List<Manifest> docs = Rendered.manifests(overlay);

        assertThat(docs).as("Secrets come from create-secrets.sh and the operators, never from git")
                .noneMatch(m -> m.is("Secret"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"prod"})
    void prodAddsMonitoringAndPodDisruptionBudgets(String overlay) {
        Set<String> kinds = Rendered.manifests(overlay).stream().map(Manifest::kind)
                .collect(Collectors.toSet());

        assertThat(kinds).contains("PodDisruptionBudget", "ServiceMonitor", "PodMonitor", "PrometheusRule");
    }
}
