package dev.hindsight.query.readmodel;

import dev.hindsight.events.EventHeader;
import dev.hindsight.platform.consumer.DeadLetters;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.consumer.Ledger;
import dev.hindsight.platform.consumer.Projection;
import dev.hindsight.platform.consumer.TransactionalBatches.Consumed;
import dev.hindsight.platform.consumer.TransactionalBatches;
import dev.hindsight.platform.kafka.Decoded;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * A platform {@link Projection} into query-service's read models, which come in generations (a rebuild fills a new
 * one while the current one serves). In a batch's transaction, for each generation being written (the current one,
 * and the one a rebuild is filling), the batch's event ids are claimed in that generation's ledger in one statement
 * and {@link #write} gets only the events claimed there for the first time. A live batch also announces what it
 * changed on its transaction ({@link ChangeFeed}), so every replica hears it exactly when it commits. A subclass adds
 * its {@code @Incoming} method (one line calling {@link #live}) and {@link #write}.
 */
public abstract class ReadModelProjection<E> extends Projection<E> {

    private final Generations generations;
    private final ChangeFeed changes;
    private final String consumer;
    private final Function<E, EventHeader> header;

    /** The projection of channel {@code channel}, whose ledger name (and name in receipts) is {@code consumer}. */
    protected ReadModelProjection(Writes writes, String channel, String consumer, Class<E> envelopeType,
            Function<E, EventHeader> header) {
        super(writes.pool, writes.deadLetters, writes.erasures, channel, envelopeType);
        this.generations = writes.generations;
        this.changes = writes.changes;
        this.consumer = consumer;
        this.header = header;
    }

    /**
     * Applies events not seen before by {@code model}, in topic order, on the transaction {@code tx}. Must be
     * idempotent on natural keys as well (the ledger is the first line, not the only one).
     */
    protected abstract Uni<Void> write(SqlClient tx, ReadModel model, List<Projected<E>> events);

    /**
     * What the events changed, announced to every replica when the batch commits: for the live stream and to drop
     * cached answers. Announcing more than changed is harmless; announcing less leaves stale answers in caches.
     */
    protected List<Change> changes(List<E> envelopes) {
        return List.of();
    }

    /**
     * What the events changed when only the read model knows it (which session a span's trace is in): read on the
     * batch's transaction after it was written to {@code model}. By default {@link #changes(List)}.
     */
    protected Uni<List<Change>> changes(SqlClient tx, ReadModel model, List<E> envelopes) {
        return Uni.createFrom().item(changes(envelopes));
    }

    /** Name in the ledger and in receipts. */
    public String consumer() {
        return consumer;
    }

    /** Projects a polled batch into every generation being written; completes after the commit. */
    protected Uni<Void> live(ConsumerRecords<String, Decoded> records) {
        return generations.ready().chain(() -> process(records));
    }

    /** A rebuild's backfill: {@code records} into {@code target} only, announcing nothing. */
    public Uni<Void> backfill(List<ConsumerRecord<String, Decoded>> records, ReadModel target) {
        return batches().process(new Into(target), records);
    }

    @Override
    public Uni<Void> apply(SqlClient tx, List<Consumed<E>> events) {
        return generations.writable(tx).chain(models -> {
            Uni<Void> chain = writeInto(tx, models, events);
            List<E> envelopes = events.stream().map(Consumed::envelope).toList();
            return chain.chain(() -> models.isEmpty()
                            ? Uni.createFrom().item(changes(envelopes))
                            : changes(tx, models.get(0), envelopes))
                    .chain(changed -> changes.announce(tx, changed));
        });
    }

    private Uni<Void> writeInto(SqlClient tx, List<ReadModel> models, List<Consumed<E>> events) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (ReadModel model : models) {
            chain = chain.chain(() -> Ledger.claim(tx, model.sql("{rm}.processed_event"), consumer, events,
                            e -> header.apply(e.envelope()))
                    .chain(fresh -> fresh.isEmpty() ? Uni.createFrom().voidItem()
                            : write(tx, model, fresh.stream()
                                    .map(e -> new Projected<>(e.envelope(), e.record().partition(),
                                            e.record().offset()))
                                    .toList())));
        }
        return chain;
    }

    /** This projection applied to one generation only, as a rebuild's backfill does. */
    private final class Into implements TransactionalBatches.Handler<E> {

        private final ReadModel target;

        Into(ReadModel target) {
            this.target = target;
        }

        @Override
        public String topic() {
            return ReadModelProjection.this.topic();
        }

        @Override
        public String deadLetterTopic() {
            return ReadModelProjection.this.deadLetterTopic();
        }

        @Override
        public Class<E> envelopeType() {
            return ReadModelProjection.this.envelopeType();
        }

        @Override
        public Uni<Void> apply(SqlClient tx, List<Consumed<E>> events) {
            return writeInto(tx, List.of(target), events);
        }
    }

    /** An event with where it was read from (trace order falls back to the offset). */
    public record Projected<E>(E envelope, int partition, long offset) {
    }

    /** What every read-model projection writes through: the pool, dead letters, generations and the change feed. */
    @Singleton
    public static final class Writes {

        private final Pool pool;
        private final DeadLetters deadLetters;
        private final Generations generations;
        private final ChangeFeed changes;
        private final ErasureLog erasures;

        public Writes(Pool pool, DeadLetters deadLetters, Generations generations, ChangeFeed changes,
                ErasureLog erasures) {
            this.erasures = erasures;
            this.pool = pool;
            this.deadLetters = deadLetters;
            this.generations = generations;
            this.changes = changes;
        }
    }
}
