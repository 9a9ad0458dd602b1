package dev.hindsight.query.projection;

import dev.hindsight.platform.consumer.DeadLetters;
import dev.hindsight.platform.kafka.Decoded;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

/**
 * Applies a polled batch of records to the read models in one database transaction per batch:
 * <ol>
 * <li>records that cannot be read, or are not this topic's envelope, go to the dead-letter topic;</li>
 * <li>in one transaction, for each generation being written (the current one, and the one a rebuild is filling), the
 * batch's event ids are claimed in that generation's ledger in one statement and the projection applies only the
 * events claimed for the first time;</li>
 * <li>a failure the data caused (the projection refused it, or PostgreSQL did: a constraint, a bad value) replays
 * the batch one event per transaction and dead-letters only the events that fail on their own;</li>
 * <li>a failure of the infrastructure (PostgreSQL unreachable, a deadlock, a restart) is retried with back-off for as
 * long as it lasts: nothing is dead-lettered and nothing is acknowledged until it is applied.</li>
 * </ol>
 * The caller acknowledges the batch when the returned {@code Uni} completes, so offsets are committed only after
 * the database commit.
 */
@ApplicationScoped
public class Projector {

    private static final Logger LOG = Logger.getLogger(Projector.class);

    private static final String CLAIM = """
            INSERT INTO {rm}.processed_event (consumer, event_id, tenant_id)
            SELECT $1, e.id, e.tenant FROM unnest($2::uuid[], $3::text[]) AS e(id, tenant)
            ON CONFLICT DO NOTHING
            RETURNING event_id""";

    private final Pool pool;
    private final Generations generations;
    private final DeadLetters deadLetters;
    private final ProjectionListener listener;

    public Projector(Pool pool, Generations generations, DeadLetters deadLetters, ProjectionListener listener) {
        this.pool = pool;
        this.generations = generations;
        this.deadLetters = deadLetters;
        this.listener = listener;
    }

    /** Live projection: into every generation being written. */
    public <E> Uni<Void> live(Projection<E> projection, List<ConsumerRecord<String, Decoded>> records) {
        return generations.ready().chain(() -> project(projection, records, null));
    }

    /** A rebuild's backfill: into {@code target} only. */
    public <E> Uni<Void> backfill(Projection<E> projection, List<ConsumerRecord<String, Decoded>> records,
            ReadModel target) {
        return project(projection, records, target);
    }

    private <E> Uni<Void> project(Projection<E> projection, List<ConsumerRecord<String, Decoded>> records,
            ReadModel only) {
        List<Candidate<E>> readable = new ArrayList<>(records.size());
        List<Uni<Void>> poison = new ArrayList<>();
        for (ConsumerRecord<String, Decoded> record : records) {
            Decoded value = record.value();
            if (value != null && projection.envelopeType().isInstance(value.envelope())) {
                readable.add(new Candidate<>(record, projection.envelopeType().cast(value.envelope())));
            } else {
                RuntimeException why = value == null || value.failure() == null
                        ? new IllegalArgumentException("not a " + projection.envelopeType().getSimpleName())
                        : new IllegalArgumentException("unreadable: " + value.failure().getMessage(), value.failure());
                poison.add(deadLetter(projection, record, why));
            }
        }
        Uni<Void> deadLettered = Multi.createFrom().iterable(poison).onItem().transformToUniAndConcatenate(u -> u)
                .collect().last().replaceWithVoid();
        if (readable.isEmpty()) {
            return deadLettered;
        }
        Uni<Void> applied = inTransaction(projection, readable, only)
                .onFailure(Projector::causedByData).recoverWithUni(batchFailure -> {
                    LOG.warnf("A batch of %d %s events failed on its data (%s); applying them one by one",
                            readable.size(), projection.topic(), batchFailure.toString());
                    return oneByOne(projection, readable, only);
                })
                .onFailure().invoke(e -> LOG.warnf("Projecting %d %s events failed, retrying: %s", readable.size(),
                        projection.topic(), e.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely();
        return deadLettered.chain(() -> applied);
    }

    private <E> Uni<Void> oneByOne(Projection<E> projection, List<Candidate<E>> events, ReadModel only) {
        return Multi.createFrom().iterable(events).onItem().transformToUniAndConcatenate(event ->
                inTransaction(projection, List.of(event), only)
                        .onFailure(Projector::causedByData)
                        .recoverWithUni(failure -> deadLetter(projection, event.record(), failure))
                        .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10))
                        .indefinitely())
                .collect().last().replaceWithVoid();
    }

    private <E> Uni<Void> inTransaction(Projection<E> projection, List<Candidate<E>> events, ReadModel only) {
        return pool.withTransaction(tx -> (only != null ? Uni.createFrom().item(List.of(only))
                        : generations.writable(tx))
                .chain(models -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (ReadModel model : models) {
                        chain = chain.chain(() -> claimAndApply(tx, model, projection, events));
                    }
                    return chain;
                }))
                .invoke(() -> {
                    if (only == null) {
                        listener.projected(projection.changes(events.stream().map(Candidate::envelope).toList()));
                    }
                });
    }

    private <E> Uni<Void> claimAndApply(SqlClient tx, ReadModel model, Projection<E> projection,
            List<Candidate<E>> events) {
        UUID[] ids = new UUID[events.size()];
        String[] tenants = new String[events.size()];
        for (int i = 0; i < events.size(); i++) {
            var header = projection.header(events.get(i).envelope());
            ids[i] = header.getEventId();
            tenants[i] = header.getTenantId();
        }
        return tx.preparedQuery(model.sql(CLAIM)).execute(Tuple.of(projection.consumer(), ids, tenants))
                .chain(claimed -> {
                    Set<UUID> fresh = new HashSet<>(claimed.size() * 2);
                    for (Row row : claimed) {
                        fresh.add(row.getUUID(0));
                    }
                    List<Projection.Projected<E>> toApply = new ArrayList<>(fresh.size());
                    for (Candidate<E> event : events) {
                        // remove(): the same event id twice in one batch (a producer's retry) is applied once.
                        if (fresh.remove(projection.header(event.envelope()).getEventId())) {
                            toApply.add(new Projection.Projected<>(event.envelope(), event.record().partition(),
                                    event.record().offset()));
                        }
                    }
                    return toApply.isEmpty() ? Uni.createFrom().voidItem()
                            : projection.apply(tx, model, toApply);
                });
    }

    private Uni<Void> deadLetter(Projection<?> projection, ConsumerRecord<String, Decoded> record, Throwable why) {
        return deadLetters.send(projection.deadLetterTopic(), record, why)
                .onFailure().invoke(e -> LOG.warnf("Dead-lettering failed, retrying: %s", e.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely();
    }

    /**
     * Whether a failure is the data's fault (so retrying cannot help and the event is dead-lettered) rather than the
     * infrastructure's (retried until it recovers). PostgreSQL errors are classified by SQLSTATE class: connection
     * (08), transaction rollback such as deadlock or serialization (40), resources (53), operator intervention such
     * as a restart (57), object in use (55) and system errors (58, XX) are the infrastructure; anything else
     * PostgreSQL refuses (a constraint, an invalid value) is the data. Failures outside the driver (the projection
     * refusing an event, a value it cannot map) are the data; I/O and client errors are the infrastructure.
     */
    static boolean causedByData(Throwable failure) {
        if (failure instanceof PgException pg) {
            String state = pg.getSqlState();
            String sqlClass = state == null || state.length() < 2 ? "" : state.substring(0, 2);
            return !Set.of("08", "40", "53", "55", "57", "58", "XX").contains(sqlClass);
        }
        if (failure instanceof NotReady || failure instanceof java.io.IOException
                || failure instanceof java.util.concurrent.TimeoutException
                || failure instanceof io.vertx.core.VertxException
                || failure instanceof io.smallrye.mutiny.TimeoutException) {
            return false;
        }
        String name = failure.getClass().getName();
        return !(name.startsWith("io.vertx.") || name.startsWith("io.netty."));
    }

    /** No generation exists yet to write into (start-up): retried, never dead-lettered. */
    public static final class NotReady extends RuntimeException {
        public NotReady(String message) {
            super(message, null, false, false);
        }
    }

    private record Candidate<E>(ConsumerRecord<String, Decoded> record, E envelope) {
    }
}
