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
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jboss.logging.Logger;

/**
 * Creates topics that do not exist yet, with the configured partitions and replication. Of an existing topic only
 * {@code max.message.bytes} is ever changed, and only raised to {@code maxMessageBytes}: an event ingest acknowledged
 * must fit (partition counts are never changed behind an operator's back). Source topics keep their history
 * ({@code retention.ms=-1}); a compacted source topic keeps each key's latest event, and rolls and cleans its
 * segments within an hour ({@code max.compaction.lag.ms}), so that what a later event replaced leaves the disks
 * (ADR 0027); dead-letter topics expire after 14 days.
 */
public final class TopicProvisioner {

    private static final String KEEP_FOREVER = "-1";
    private static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    private static final String FOURTEEN_DAYS_MS = String.valueOf(TimeUnit.DAYS.toMillis(14));
    private static final String ONE_HOUR_MS = String.valueOf(TimeUnit.HOURS.toMillis(1));

    private static final Logger LOG = Logger.getLogger(TopicProvisioner.class);

    private TopicProvisioner() {
    }

    /** Creates the missing ones among {@code sourceTopics} (kept forever) and {@code deadLetterTopics}. */
    public static void ensure(String bootstrapServers, Collection<String> sourceTopics,
            Collection<String> deadLetterTopics, int partitions, short replicationFactor, int maxMessageBytes) {
        ensure(bootstrapServers, sourceTopics, deadLetterTopics, partitions, replicationFactor, maxMessageBytes,
                List.of());
    }

    /** As {@link #ensure}, the source topics among {@code compacted} made compacted. */
    public static void ensure(String bootstrapServers, Collection<String> sourceTopics,
            Collection<String> deadLetterTopics, int partitions, short replicationFactor, int maxMessageBytes,
            Collection<String> compacted) {
        String largest = Integer.toString(maxMessageBytes);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new java.util.ArrayList<>();
            for (String topic : sourceTopics) {
                if (!existing.contains(topic)) {
                    missing.add(new NewTopic(topic, partitions, replicationFactor).configs(compacted.contains(topic)
                            ? Map.of("cleanup.policy", "compact", "max.compaction.lag.ms", ONE_HOUR_MS,
                                    "min.compaction.lag.ms", "0", MAX_MESSAGE_BYTES, largest)
                            : Map.of("retention.ms", KEEP_FOREVER, MAX_MESSAGE_BYTES, largest)));
                }
            }
            for (String topic : deadLetterTopics) {
                if (!existing.contains(topic)) {
                    missing.add(new NewTopic(topic, partitions, replicationFactor)
                            .configs(Map.of("retention.ms", FOURTEEN_DAYS_MS, MAX_MESSAGE_BYTES, largest)));
                }
            }
            List<String> present = new java.util.ArrayList<>();
            for (String topic : sourceTopics) {
                if (existing.contains(topic)) {
                    present.add(topic);
                }
            }
            for (String topic : deadLetterTopics) {
                if (existing.contains(topic)) {
                    present.add(topic);
                }
            }
            raiseMessageLimit(admin, present, maxMessageBytes);
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

    /** Raises {@code max.message.bytes} of the {@code topics} that take less than {@code maxMessageBytes}. */
    private static void raiseMessageLimit(Admin admin, List<String> topics, int maxMessageBytes)
            throws ExecutionException, InterruptedException, TimeoutException {
        if (topics.isEmpty()) {
            return;
        }
        List<ConfigResource> resources = topics.stream()
                .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic)).toList();
        Map<ConfigResource, Collection<AlterConfigOp>> raise = new java.util.HashMap<>();
        admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS).forEach((resource, config) -> {
            ConfigEntry entry = config.get(MAX_MESSAGE_BYTES);
            if (entry == null || entry.value() == null || Long.parseLong(entry.value()) < maxMessageBytes) {
                raise.put(resource, List.of(new AlterConfigOp(
                        new ConfigEntry(MAX_MESSAGE_BYTES, Integer.toString(maxMessageBytes)), AlterConfigOp.OpType.SET)));
            }
        });
        if (!raise.isEmpty()) {
            admin.incrementalAlterConfigs(raise).all().get(30, TimeUnit.SECONDS);
            LOG.infof("Raised %s to %d on %s", MAX_MESSAGE_BYTES, maxMessageBytes,
                    raise.keySet().stream().map(ConfigResource::name).toList());
        }
    }
}
