package dev.hindsight.platform.consumer;

import dev.hindsight.platform.kafka.Decoded;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * What every batched consumer of one channel shares: its topic and dead-letter topic (from the channel's name), its
 * envelope type, and handing a polled batch to {@link TransactionalBatches}. A subclass adds its {@code @Incoming}
 * method (one line calling {@link #process}) and {@link #apply}, or extends {@link LedgeredTopicHandler} to apply each
 * event once. Subclasses are {@code @Singleton}s: a client proxy would need a no-argument constructor.
 */
public abstract class TopicHandler<E> extends ChannelConsumer<E> implements TransactionalBatches.Handler<E> {

    private final TransactionalBatches batches;

    /** A handler of channel {@code channel} (its topics as configured, {@link Channel#incoming}). */
    protected TopicHandler(Pool pool, DeadLetters deadLetters, String channel, Class<E> envelopeType) {
        super(channel, envelopeType);
        this.batches = new TransactionalBatches(pool, deadLetters);
    }

    /** Applies a polled batch; completes after the commit (or the dead letters), so offsets are committed then. */
    protected Uni<Void> process(ConsumerRecords<String, Decoded> records) {
        return batches.process(this, records);
    }

    /** Runs {@code sql} once per row in one round trip; nothing when there are no rows. */
    protected static Uni<Void> executeBatch(SqlClient tx, String sql, List<Tuple> rows) {
        return rows.isEmpty() ? Uni.createFrom().voidItem()
                : tx.preparedQuery(sql).executeBatch(rows).replaceWithVoid();
    }
}
