package dev.hindsight.evaluation.outbox;

import dev.hindsight.evaluation.config.EvaluationConfig;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.EventSealer;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Publisher;
import dev.hindsight.platform.work.BackgroundWork;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
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
 * and before the delete publishes the row again, which consumers drop by its event id. Every event is sealed on its
 * way out (ADR 0027): summaries and verdicts quote what people wrote. An insight is sealed under a key its session
 * owns, an evaluation under a key its decision set's message owns, so that erasing the session or message destroys
 * those keys too; the outbox row itself is in clear only until it is published.
 */
@Singleton
public class OutboxRelay extends BackgroundWork {

    private static final String NEXT = """
            SELECT id, topic, record_key, event_id, envelope FROM outbox /* every tenant: in id order */
            ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED""";
    private static final String DELETE = """
            DELETE FROM outbox /* every tenant: the rows just published */ WHERE id = ANY($1)""";
    private static final String PRINCIPAL = "hindsight-evaluation";
    /** A key not acknowledged by then fails the round, which is tried again; nothing was sent. */
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(30);

    private final Pool pool;
    private final EvaluationConfig.Relay config;
    private final Map<String, HindsightTopic> topics = new LinkedHashMap<>();
    private final Map<HindsightTopic, KafkaProducer<String, SpecificRecordBase>> producers = new LinkedHashMap<>();
    private final EventSealer sealer;

    /** The emitters are injected only so that SmallRye creates the channels (and their health checks). */
    public OutboxRelay(Pool pool, Vertx vertx, EvaluationConfig config, KafkaClientService kafka, Config channels,
            Kms kms, @Identifier("default-kafka-broker") Map<String, Object> kafkaSettings,
            @Channel("insights") MutinyEmitter<InsightEvent> insights,
            @Channel("evaluations") MutinyEmitter<EvaluationEvent> evaluations,
            @Channel(DataKeyIssuer.CHANNEL) MutinyEmitter<DataKeyEvent> dataKeys) {
        super(vertx, config.relay().pollInterval(), "Publishing the outbox", false);
        this.pool = pool;
        this.config = config.relay();
        this.sealer = new EventSealer(DataKeyIssuer.onChannel(kms, PRINCIPAL, kafka, channels, ACK_TIMEOUT),
                topic -> DataKeys.Scope.SESSION, kafkaSettings, channels);
        for (HindsightTopic topic : HindsightTopic.writtenBy("evaluation-service")) {
            if (topic == HindsightTopic.DATA_KEYS) {
                continue;
            }
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
                        String name = names.get(entry.getKey());
                        sent = sent.chain(() -> sealer.seal(name, entry.getValue()))
                                .chain(sealed -> Publisher.sendAll(producers.get(entry.getKey()), name, sealed))
                                .replaceWithVoid();
                    }
                    return sent.chain(() -> tx.preparedQuery(DELETE).execute(Tuple.of(ids.toArray(Long[]::new))))
                            .map(deleted -> ids.size());
                }));
    }

    @PreDestroy
    void closeSealer() {
        sealer.close();
    }
}
