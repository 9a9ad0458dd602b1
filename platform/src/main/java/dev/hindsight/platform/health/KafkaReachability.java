package dev.hindsight.platform.health;

import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Kafka as a dependency that degrades a service instead of taking it out of service: for a service whose requests are
 * answered from PostgreSQL (query-service and memory-service read; their projections and memory's writes wait for the
 * brokers). Readiness stays UP whether the brokers answer or not, and says which: {@code kafka: reachable} with the
 * broker count, or {@code kafka: unreachable} since when and why. The brokers are asked every 5 s in the background,
 * so a probe never waits for a broker that is away. Enabled by {@code hindsight.health.kafka=informational} at build
 * time, in place of the Kafka checks that would fail readiness.
 */
@Readiness
@ApplicationScoped
@IfBuildProperty(name = "hindsight.health.kafka", stringValue = "informational")
class KafkaReachability implements HealthCheck {

    private final Map<String, Object> config = new HashMap<>();
    private volatile Admin admin;
    private volatile State state = new State(false, 0, Instant.now(), "not asked yet");
    private long timer = -1;

    record State(boolean reachable, int brokers, Instant since, String reason) {
    }

    public KafkaReachability(@Identifier("default-kafka-broker") Map<String, Object> kafka) {
        // The channels' connection settings (on Kubernetes: TLS and SASL); only what an admin client knows.
        kafka.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                config.put(key, value);
            }
        });
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "hindsight-reachability");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 4000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
    }

    void onStart(@Observes StartupEvent event, Vertx vertx) {
        admin = Admin.create(config);
        ask();
        timer = vertx.setPeriodic(5000, id -> ask());
    }

    void onStop(@Observes ShutdownEvent event, Vertx vertx) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(1));
        }
    }

    private void ask() {
        admin.describeCluster(new DescribeClusterOptions().timeoutMs(3000)).nodes().whenComplete((nodes, failure) -> {
            State was = state;
            if (failure == null) {
                state = new State(true, nodes.size(), was.reachable() ? was.since() : Instant.now(), null);
            } else {
                String reason = failure.getClass().getSimpleName() + ": " + failure.getMessage();
                state = new State(false, 0, was.reachable() ? Instant.now() : was.since(), reason);
            }
        });
    }

    @Override
    public HealthCheckResponse call() {
        State now = state;
        var response = HealthCheckResponse.named("kafka").up()
                .withData("kafka", now.reachable() ? "reachable" : "unreachable")
                .withData("since", now.since().toString());
        if (now.reachable()) {
            response.withData("brokers", now.brokers());
        } else {
            response.withData("reason", String.valueOf(now.reason()))
                    .withData("effect", "reads are served; projections and writes to Kafka wait for the brokers");
        }
        return response.build();
    }
}
