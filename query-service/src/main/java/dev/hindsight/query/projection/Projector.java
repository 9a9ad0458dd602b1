package dev.hindsight.query.projection;

import dev.hindsight.platform.consumer.DeadLetters;
import dev.hindsight.platform.consumer.Ledger;
import dev.hindsight.platform.consumer.TransactionalBatches.Consumed;
import dev.hindsight.platform.consumer.TransactionalBatches;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.query.change.ChangeFeed;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Applies a polled batch of records to the read models through the platform's {@link TransactionalBatches} (one
 * transaction per batch, poison to the dead-letter topic, infrastructure failures retried): in that transaction, for
 * each generation being written (the current one, and the one a rebuild is filling), the batch's event ids are
 * claimed in that generation's ledger in one statement and the projection applies only the events claimed for the
 * first time. A live batch also announces what it changed on its transaction ({@link ChangeFeed}), so every replica
 * hears it exactly when it commits.
 */
@ApplicationScoped
public class Projector {

    private final TransactionalBatches batches;
    private final Generations generations;
    private final ChangeFeed changes;

    public Projector(Pool pool, Generations generations, DeadLetters deadLetters, ChangeFeed changes) {
        this.batches = new TransactionalBatches(pool, deadLetters);
        this.generations = generations;
        this.changes = changes;
    }

    /** Live projection: into every generation being written. */
    public <E> Uni<Void> live(Projection<E> projection, List<ConsumerRecord<String, Decoded>> records) {
        return generations.ready().chain(() -> batches.process(new Into<>(projection, null), records));
    }

    /** A rebuild's backfill: into {@code target} only. */
    public <E> Uni<Void> backfill(Projection<E> projection, List<ConsumerRecord<String, Decoded>> records,
            ReadModel target) {
        return batches.process(new Into<>(projection, target), records);
    }

    /** A projection applied to the writable generations, or to {@code only}. */
    private final class Into<E> implements TransactionalBatches.Handler<E> {

        private final Projection<E> projection;
        private final ReadModel only;

        Into(Projection<E> projection, ReadModel only) {
            this.projection = projection;
            this.only = only;
        }

        @Override
        public String topic() {
            return projection.topic();
        }

        @Override
        public String deadLetterTopic() {
            return projection.deadLetterTopic();
        }

        @Override
        public Class<E> envelopeType() {
            return projection.envelopeType();
        }

        @Override
        public Uni<Void> apply(SqlClient tx, List<Consumed<E>> events) {
            return (only != null ? Uni.createFrom().item(List.of(only)) : generations.writable(tx)).chain(models -> {
                Uni<Void> chain = Uni.createFrom().voidItem();
                for (ReadModel model : models) {
                    chain = chain.chain(() -> Ledger.claim(tx, model.sql("{rm}.processed_event"),
                                    projection.consumer(), events, e -> projection.header(e.envelope()))
                            .chain(fresh -> fresh.isEmpty() ? Uni.createFrom().voidItem()
                                    : projection.apply(tx, model, fresh.stream()
                                            .map(e -> new Projection.Projected<>(e.envelope(),
                                                    e.record().partition(), e.record().offset()))
                                            .toList())));
                }
                if (only == null) {
                    List<E> envelopes = events.stream().map(Consumed::envelope).toList();
                    chain = chain.chain(() -> models.isEmpty()
                                    ? Uni.createFrom().item(projection.changes(envelopes))
                                    : projection.changes(tx, models.get(0), envelopes))
                            .chain(changed -> changes.announce(tx, changed));
                }
                return chain;
            });
        }
    }
}
