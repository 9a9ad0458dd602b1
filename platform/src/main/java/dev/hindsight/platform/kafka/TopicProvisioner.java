package dev.hindsight.platform.kafka;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates topics that do not exist yet, with the configured partitions and replication. Existing topics are left
 * untouched: partition counts are never changed behind an operator's back. Source topics keep their history
 * ({@code retention.ms=-1}); dead-letter topics expire after 14 days.
 */
public final class TopicProvisioner {

    private static final String KEEP_FOREVER = "-1";
    private static final String FOURTEEN_DAYS_MS = String.valueOf(TimeUnit.DAYS.toMillis(14));

    private TopicProvisioner() {
    }

    /** Creates the missing ones among {@code sourceTopics} (kept forever) and {@code deadLetterTopics}. */
    public static void ensure(String bootstrapServers, Collection<String> sourceTopics,
            Collection<String> deadLetterTopics, int partitions, short replicationFactor) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new java.util.ArrayList<>();
            for (String topic : sourceTopics) {
                if (!existing.contains(topic)) {
                    missing.add(new NewTopic(topic, partitions, replicationFactor)
                            .configs(Map.of("retention.ms", KEEP_FOREVER)));
                }
            }
            for (String topic : deadLetterTopics) {
                if (!existing.contains(topic)) {
                    missing.add(new NewTopic(topic, partitions, replicationFactor)
                            .configs(Map.of("retention.ms", FOURTEEN_DAYS_MS)));
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            admin.createTopics(missing).values().forEach((name, future) -> {
                try {
                    future.get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("Could not create topic " + name, e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while creating topic " + name, e);
                } catch (TimeoutException e) {
                    throw new IllegalStateException("Timed out creating topic " + name, e);
                }
            });
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka unreachable at " + bootstrapServers + " while provisioning topics",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while provisioning topics", e);
        }
    }
}
