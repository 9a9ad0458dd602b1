package dev.hindsight.platform.consumer;

import dev.hindsight.events.EventHeader;
import dev.hindsight.platform.consumer.TransactionalBatches.Consumed;
import dev.hindsight.platform.kafka.Decoded;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * What every batched consumer of one channel shares: its topic, its dead-letter topic, its envelope type, and handing
 * a polled batch to {@link TransactionalBatches}. A subclass adds its {@code @Incoming} method (one line calling
 * {@link #process}) and {@link #apply}. Subclasses are {@code @Singleton}s: a client proxy would need a no-argument
 * constructor.
 */
public abstract class TopicHandler<E> implements TransactionalBatches.Handler<E> {

    private final TransactionalBatches batches;
    private final String topic;
    private final String deadLetterTopic;
    private final Class<E> envelopeType;

    protected TopicHandler(Pool pool, DeadLetters deadLetters, String topic, String deadLetterTopic,
            Class<E> envelopeType) {
        this.batches = new TransactionalBatches(pool, deadLetters);
        this.topic = topic;
        this.deadLetterTopic = deadLetterTopic;
        this.envelopeType = envelopeType;
    }

    /** Applies a polled batch; completes after the commit (or the dead letters), so offsets are committed then. */
    protected Uni<Void> process(ConsumerRecords<String, Decoded> records) {
        return batches.process(this, records);
    }

    /**
     * Claims the batch's event ids for {@code consumer} in the platform ledger ({@code processed_event}, in {@code tx})
     * and hands {@code write} only the events seen for the first time; nothing is written when there are none.
     */
    protected static <E> Uni<Void> firstSeen(SqlClient tx, String consumer, List<Consumed<E>> events,
            Function<E, EventHeader> header, BiFunction<SqlClient, List<Consumed<E>>, Uni<Void>> write) {
        return Ledger.claim(tx, "processed_event", consumer, events, e -> header.apply(e.envelope()))
                .chain(fresh -> fresh.isEmpty() ? Uni.createFrom().voidItem() : write.apply(tx, fresh));
    }

    /** Runs {@code sql} once per row in one round trip; nothing when there are no rows. */
    protected static Uni<Void> executeBatch(SqlClient tx, String sql, List<Tuple> rows) {
        return rows.isEmpty() ? Uni.createFrom().voidItem()
                : tx.preparedQuery(sql).executeBatch(rows).replaceWithVoid();
    }

    @Override
    public String topic() {
        return topic;
    }

    @Override
    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    @Override
    public Class<E> envelopeType() {
        return envelopeType;
    }
}
