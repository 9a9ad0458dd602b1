package dev.hindsight.platform.consumer;

import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.kafka.Decoded;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * The one skeleton of every Hindsight consumer: a projection applies one channel's events to its service's state in
 * PostgreSQL, one transaction per polled batch ({@link TransactionalBatches}). It names its channel, whose configured
 * topic and dead-letter topic it reads ({@link Channel#incoming}), and the envelope type it decodes; a subclass adds
 * its {@code @Incoming} method (one line calling {@link #process}) and {@link #apply}, or extends
 * {@link LedgeredProjection} to apply each event once, and names the workers it wakes ({@link #wakeAfterCommit}).
 * Subclasses are {@code @Singleton}s: a client proxy would need a no-argument constructor.
 */
public abstract class Projection<E> implements TransactionalBatches.Handler<E> {

    private final Channel channel;
    private final Class<E> envelopeType;
    private final TransactionalBatches batches;
    private final List<Runnable> afterCommit = new ArrayList<>();

    /** A projection of channel {@code channel} (its topics as configured). */
    protected Projection(Pool pool, DeadLetters deadLetters, ErasureLog erasures, String channel,
            Class<E> envelopeType) {
        this.channel = Channel.incoming(channel);
        this.envelopeType = envelopeType;
        this.batches = new TransactionalBatches(pool, deadLetters, erasures);
    }

    @Override
    public String topic() {
        return channel.topic();
    }

    @Override
    public String deadLetterTopic() {
        return channel.deadLetterTopic();
    }

    @Override
    public Class<E> envelopeType() {
        return envelopeType;
    }

    /**
     * Runs {@code wake} after every batch this projection commits: how a projection tells the worker that reads the
     * state it wrote that there is more. Called from the constructor.
     */
    protected final void wakeAfterCommit(Runnable wake) {
        afterCommit.add(wake);
    }

    @Override
    public void committed(List<TransactionalBatches.Consumed<E>> events) {
        afterCommit.forEach(Runnable::run);
    }

    /** Applies a polled batch; completes after the commit (or the dead letters), so offsets are committed then. */
    protected Uni<Void> process(ConsumerRecords<String, Decoded> records) {
        return batches.process(this, records);
    }

    /** The transactions this projection's batches run in, for a caller that applies records its own way. */
    protected TransactionalBatches batches() {
        return batches;
    }

    /** Runs {@code sql} once per row in one round trip; nothing when there are no rows. */
    protected static Uni<Void> executeBatch(SqlClient tx, String sql, List<Tuple> rows) {
        return rows.isEmpty() ? Uni.createFrom().voidItem()
                : tx.preparedQuery(sql).executeBatch(rows).replaceWithVoid();
    }
}
