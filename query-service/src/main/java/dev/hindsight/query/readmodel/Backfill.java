package dev.hindsight.query.readmodel;

import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.kafka.DecodingDeserializer;
import dev.hindsight.platform.redact.Redactor;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Fills a new generation from offset zero. When a generation is created, the end offsets of every source topic are
 * taken (after the creation committed, so every event the live projection handled without writing the new
 * generation lies below them); the backfill reads each partition up to its end offset with its own consumer
 * (assigned, no group, read_committed) and applies the events through their {@link ReadModelProjection} into the
 * new generation only, while the live projection writes everything newer into it as well. Both go through the generation's ledger,
 * so an event both see is applied once. When every partition is read, a building generation becomes current.
 * <p>
 * One replica runs a generation's backfill (it claims the generation and keeps a heartbeat); if it dies, another
 * claims it after 30 s and starts over, which the ledger makes harmless.
 */
@ApplicationScoped
public class Backfill {

    private static final Logger LOG = Logger.getLogger(Backfill.class);

    private static final String UNFINISHED = "SELECT generation FROM read_model_generation "
            + "WHERE backfill_done_at IS NULL AND state <> 'retired' ORDER BY generation";
    private static final String CLAIM = """
            UPDATE read_model_generation SET backfill_owner = $2, backfill_heartbeat = now(), backfill_events = 0
            WHERE generation = $1 AND backfill_done_at IS NULL AND state <> 'retired'
              AND (backfill_owner IS NULL OR backfill_owner = $2 OR backfill_heartbeat < now() - interval '30 seconds')
            RETURNING backfill_until""";
    private static final String HEARTBEAT = """
            UPDATE read_model_generation SET backfill_heartbeat = now(), backfill_position = $3,
                   backfill_events = backfill_events + $4
            WHERE generation = $1 AND backfill_owner = $2""";

    private final Pool pool;
    private final Generations generations;
    private final Map<String, ReadModelProjection<?>> byTopic = new HashMap<>();
    private final Map<String, Object> consumerConfig = new HashMap<>();
    private final String owner = "query-" + UUID.randomUUID();
    private final AtomicBoolean running = new AtomicBoolean();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "read-model-backfill");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean stopping;

    public Backfill(Pool pool, Generations generations, @Any Instance<ReadModelProjection<?>> projections,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url") String registryUrl) {
        this.pool = pool;
        this.generations = generations;
        for (ReadModelProjection<?> projection : projections) {
            byTopic.put(projection.topic(), projection);
        }
        // Every kafka.* setting the channels get (on Kubernetes: TLS and SASL), but no group: partitions are assigned.
        consumerConfig.putAll(kafka);
        consumerConfig.remove(ConsumerConfig.GROUP_ID_CONFIG);
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, "hindsight-query-backfill");
        consumerConfig.put("apicurio.registry.url", registryUrl);
        consumerConfig.put("apicurio.registry.use-specific-avro-reader", true);
    }

    void onStart(@Observes @Priority(Interceptor.Priority.APPLICATION + 10) StartupEvent event, Vertx vertx) {
        vertx.setPeriodic(10, 5000, id -> resume());
    }

    void onStop(@Observes ShutdownEvent event) {
        stopping = true;
        worker.shutdownNow();
    }

    /** Starts the backfill of any unfinished generation this replica can claim (now, then every 5 s). */
    public void resume() {
        if (stopping || running.get()) {
            return;
        }
        pool.query(UNFINISHED).execute().subscribe().with(rows -> {
            for (Row row : rows) {
                start(new ReadModel(row.getInteger(0)));
                return;
            }
        }, e -> LOG.debugf("Looking for unfinished backfills failed: %s", e));
    }

    private void start(ReadModel model) {
        if (!running.compareAndSet(false, true)) {
            return;
        }
        pool.preparedQuery(CLAIM).execute(Tuple.of(model.generation(), owner)).subscribe().with(rows -> {
            if (rows.size() == 0) {
                running.set(false);
                return;
            }
            JsonObject until = rows.iterator().next().getJsonObject(0);
            worker.execute(() -> {
                try {
                    run(model, until);
                } catch (RuntimeException e) {
                    if (!stopping) {
                        LOG.errorf(Redactor.operational(e), "Backfill of read-model generation %d stopped; it resumes within seconds",
                                model.generation());
                    }
                } finally {
                    running.set(false);
                }
            });
        }, e -> {
            running.set(false);
            LOG.debugf("Claiming the backfill of generation %d failed: %s", model.generation(), e);
        });
    }

    private void run(ReadModel model, JsonObject knownUntil) {
        // Kafka does not configure deserializer instances handed to the constructor: configure it here.
        DecodingDeserializer values = new DecodingDeserializer();
        values.configure(consumerConfig, false);
        try (KafkaConsumer<String, Decoded> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                values)) {
            Map<TopicPartition, Long> until = knownUntil != null ? parse(knownUntil) : endOffsets(consumer, model);
            List<TopicPartition> pending = new ArrayList<>();
            until.forEach((partition, end) -> {
                if (end > 0) {
                    pending.add(partition);
                }
            });
            LOG.infof("Backfilling read-model generation %d from offset zero up to %s", model.generation(), until);
            consumer.assign(pending);
            consumer.seekToBeginning(pending);
            long total = 0;
            while (!pending.isEmpty() && !stopping) {
                var polled = consumer.poll(Duration.ofMillis(500));
                Map<String, List<ConsumerRecord<String, Decoded>>> perTopic = new HashMap<>();
                for (ConsumerRecord<String, Decoded> record : polled) {
                    if (record.offset() < until.get(new TopicPartition(record.topic(), record.partition()))) {
                        perTopic.computeIfAbsent(record.topic(), t -> new ArrayList<>()).add(record);
                    }
                }
                int applied = 0;
                for (var topic : perTopic.entrySet()) {
                    byTopic.get(topic.getKey()).backfill(topic.getValue(), model).await().indefinitely();
                    applied += topic.getValue().size();
                }
                total += applied;
                List<TopicPartition> done = new ArrayList<>();
                JsonObject position = new JsonObject();
                for (TopicPartition partition : pending) {
                    long at = consumer.position(partition);
                    position.put(partition.toString(), at);
                    if (at >= until.get(partition)) {
                        done.add(partition);
                    }
                }
                pending.removeAll(done);
                if (!done.isEmpty()) {
                    consumer.assign(pending);
                }
                int updated = pool.preparedQuery(HEARTBEAT)
                        .execute(Tuple.of(model.generation(), owner, position, applied)).await().indefinitely()
                        .rowCount();
                if (updated == 0) {
                    LOG.warnf("Lost the backfill of generation %d to another replica", model.generation());
                    return;
                }
            }
            if (stopping) {
                return;
            }
            finish(model).await().indefinitely();
            LOG.infof("Read-model generation %d backfilled (%d events)", model.generation(), total);
        }
    }

    private Map<TopicPartition, Long> endOffsets(KafkaConsumer<String, Decoded> consumer, ReadModel model) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : byTopic.keySet()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            for (PartitionInfo info : infos == null ? List.<PartitionInfo>of() : infos) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
        }
        Map<TopicPartition, Long> until = consumer.endOffsets(partitions, Duration.ofSeconds(30));
        JsonObject json = new JsonObject();
        until.forEach((partition, end) -> json.put(partition.toString(), end));
        pool.preparedQuery("UPDATE read_model_generation SET backfill_until = $2 WHERE generation = $1")
                .execute(Tuple.of(model.generation(), json)).await().indefinitely();
        return until;
    }

    private static Map<TopicPartition, Long> parse(JsonObject json) {
        Map<TopicPartition, Long> until = new HashMap<>();
        for (String key : json.fieldNames()) {
            int dash = key.lastIndexOf('-');
            until.put(new TopicPartition(key.substring(0, dash), Integer.parseInt(key.substring(dash + 1))),
                    json.getLong(key));
        }
        return until;
    }

    private Uni<Void> finish(ReadModel model) {
        return pool.withTransaction(tx -> tx.preparedQuery("UPDATE read_model_generation SET backfill_done_at = now() "
                        + "WHERE generation = $1 RETURNING state").execute(Tuple.of(model.generation()))
                .chain(rows -> rows.size() > 0 && "building".equals(rows.iterator().next().getString(0))
                        ? generations.switchTo(tx, model) : Uni.createFrom().voidItem()))
                .chain(() -> generations.refresh().replaceWithVoid());
    }
}
