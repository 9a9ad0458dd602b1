package dev.hindsight.platform.consumer;

import dev.hindsight.events.EventHeader;
import dev.hindsight.platform.consumer.TransactionalBatches.Consumed;
import dev.hindsight.platform.erasure.ErasureLog;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link Projection} that applies each event once: the batch's event ids are claimed for the projection's consumer
 * name in the platform ledger ({@code processed_event}, {@link Ledger}) in the batch's transaction, and
 * {@link #write} gets only the events seen for the first time (nothing is written when there are none), so a
 * redelivered batch changes nothing.
 */
public abstract class LedgeredProjection<E> extends Projection<E> {

    private final String consumer;
    private final Function<E, EventHeader> header;

    protected LedgeredProjection(Pool pool, DeadLetters deadLetters, ErasureLog erasures, String channel,
            String consumer, Class<E> envelopeType, Function<E, EventHeader> header) {
        super(pool, deadLetters, erasures, channel, envelopeType);
        this.consumer = consumer;
        this.header = header;
    }

    @Override
    public final Uni<Void> apply(SqlClient tx, List<Consumed<E>> events) {
        return Ledger.claim(tx, "processed_event", consumer, events, e -> header.apply(e.envelope()))
                .chain(fresh -> fresh.isEmpty() ? Uni.createFrom().voidItem() : write(tx, fresh));
    }

    /** Applies {@code events}, each seen by this consumer for the first time, in {@code tx}. */
    protected abstract Uni<Void> write(SqlClient tx, List<Consumed<E>> events);
}
