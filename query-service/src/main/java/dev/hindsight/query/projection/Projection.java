package dev.hindsight.query.projection;

import dev.hindsight.events.EventHeader;
import dev.hindsight.query.change.Change;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.List;

/**
 * How one topic's envelopes change the read models. {@link Projector} decodes, deduplicates (each generation's
 * ledger) and transacts; a projection only turns new events into statements, batched per statement.
 *
 * @param <E> the topic's envelope type
 */
public interface Projection<E> {

    /** The topic this projection reads, as configured for its channel. */
    String topic();

    /** Name in the ledger (and in receipts). */
    String consumer();

    /** Where records this projection cannot apply go. */
    String deadLetterTopic();

    Class<E> envelopeType();

    EventHeader header(E envelope);

    /**
     * Applies events not seen before by {@code readModel}, in topic order, on the transaction {@code tx}. Must be
     * idempotent on natural keys as well (the ledger is the first line, not the only one).
     */
    Uni<Void> apply(SqlClient tx, ReadModel readModel, List<Projected<E>> events);

    /**
     * What the events changed, announced to every replica when the batch commits: for the live stream and to drop
     * cached answers. Announcing more than changed is harmless; announcing less leaves stale answers in caches.
     */
    default List<Change> changes(List<E> envelopes) {
        return List.of();
    }

    /**
     * What the events changed when only the read model knows it (which session a span's trace is in): read on the
     * batch's transaction after it was applied to {@code model}. By default {@link #changes(List)}.
     */
    default Uni<List<Change>> changes(SqlClient tx, ReadModel model, List<E> envelopes) {
        return Uni.createFrom().item(changes(envelopes));
    }

    /** An event with where it was read from (trace order falls back to the offset). */
    record Projected<E>(E envelope, int partition, long offset) {
    }
}
