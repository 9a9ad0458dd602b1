package dev.hindsight.evaluation.outbox;

import dev.hindsight.evaluation.config.EvaluationConfig;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Publisher;
import dev.hindsight.platform.work.BackgroundWork;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecordBase;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Publishes the outbox to Kafka in id order and deletes what Kafka acknowledged (acks=all, idempotent producer). Rows
 * are locked while they are sent, so several instances never publish the same row at once; a crash after the send
 * and before the delete publishes the row again, which consumers drop by its event id.
 */
@Singleton
public class OutboxRelay extends BackgroundWork {

    private static final String NEXT = """
            SELECT id, topic, record_key, event_id, envelope FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED""";
    private static final String DELETE = "DELETE FROM outbox WHERE id = ANY($1)";

    private final Pool pool;
    private final EvaluationConfig.Relay config;
    private final Map<String, HindsightTopic> topics = new LinkedHashMap<>();
    private final Map<HindsightTopic, KafkaProducer<String, SpecificRecordBase>> producers = new LinkedHashMap<>();

    /** The emitters are injected only so that SmallRye creates the channels (and their health checks). */
    public OutboxRelay(Pool pool, Vertx vertx, EvaluationConfig config, KafkaClientService kafka, Config channels,
            @Channel("insights") MutinyEmitter<InsightEvent> insights,
            @Channel("evaluations") MutinyEmitter<EvaluationEvent> evaluations) {
        super(vertx, config.relay().pollInterval(), "Publishing the outbox", false);
        this.pool = pool;
        this.config = config.relay();
        for (HindsightTopic topic : HindsightTopic.writtenBy("evaluation-service")) {
            topics.put(OwnedTopics.name(channels, topic), topic);
            KafkaProducer<String, SpecificRecordBase> producer =
                    kafka.getProducer(topic.name().toLowerCase(java.util.Locale.ROOT));
            if (producer == null) {
                throw new IllegalStateException("No Kafka producer for topic " + topic);
            }
            producers.put(topic, producer);
        }
    }

    @Override
    protected Uni<Boolean> oneRound() {
        return round().map(published -> published >= config.batchSize());
    }

    /** One round: the oldest rows, published and deleted; the number published. */
    Uni<Integer> round() {
        return pool.withTransaction(tx -> tx.preparedQuery(NEXT).execute(Tuple.of(config.batchSize()))
                .chain(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().item(0);
                    }
                    Map<HindsightTopic, List<Outgoing<SpecificRecordBase>>> byTopic = new LinkedHashMap<>();
                    Map<HindsightTopic, String> names = new LinkedHashMap<>();
                    List<Long> ids = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        HindsightTopic topic = topics.get(row.getString("topic"));
                        if (topic == null) {
                            throw new IllegalStateException("Outbox row for a topic this service does not write: "
                                    + row.getString("topic"));
                        }
                        names.put(topic, row.getString("topic"));
                        byTopic.computeIfAbsent(topic, t -> new ArrayList<>()).add(new Outgoing<>(
                                row.getString("record_key"),
                                Outbox.decode(topic, row.getBuffer("envelope").getBytes()),
                                row.getUUID("event_id").toString()));
                        ids.add(row.getLong("id"));
                    }
                    Uni<Void> sent = Uni.createFrom().voidItem();
                    for (var entry : byTopic.entrySet()) {
                        sent = sent.chain(() -> Publisher.sendAll(producers.get(entry.getKey()),
                                names.get(entry.getKey()), entry.getValue()).replaceWithVoid());
                    }
                    return sent.chain(() -> tx.preparedQuery(DELETE).execute(Tuple.of(ids.toArray(Long[]::new))))
                            .map(deleted -> ids.size());
                }));
    }
}
