package dev.hindsight.platform.consumer;

import dev.hindsight.events.EventHeader;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.pgclient.PgException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

/**
 * How every Hindsight consumer that writes PostgreSQL applies a polled batch: one database transaction per batch.
 * <ol>
 * <li>nothing is applied before the erasure log is read (ADR 0028); records of an erased session, message, trace
 * or tenant are skipped, whether their key was destroyed or they were written in clear;</li>
 * <li>sealed records whose data key cannot be opened yet are waited for; those whose key was destroyed are erased
 * and skipped (ADR 0027);</li>
 * <li>records that cannot be read, or are not the topic's envelope, go to the dead-letter topic as stored;</li>
 * <li>the rest are handed to the {@link Handler} on one transaction (it claims their ids in its ledger and changes
 * its state);</li>
 * <li>a failure the data caused (the handler refused it, or PostgreSQL did: a constraint, a bad value) replays the
 * batch one event per transaction and dead-letters only the events that fail on their own;</li>
 * <li>a failure of the infrastructure (PostgreSQL unreachable, a deadlock, a restart) is retried with back-off for as
 * long as it lasts: nothing is dead-lettered and nothing is acknowledged until it is applied.</li>
 * </ol>
 * The caller acknowledges the batch when the returned {@code Uni} completes, so offsets are committed only after
 * the database commit. Not a bean: each service builds one around its own pool. After each commit the age of every
 * event of the batch (from its record timestamp) is recorded as {@code hindsight_consumer_event_age_seconds} by topic:
 * how long events take to reach the service's state, the projection freshness operators watch (every event, not only
 * the newest: the oldest event of a batch waited longest, and the newest alone would understate it).
 */
public final class TransactionalBatches {

    private static final Logger LOG = Logger.getLogger(TransactionalBatches.class);
    private static final Set<String> INFRASTRUCTURE_SQL_CLASSES = Set.of("08", "40", "53", "55", "57", "58", "XX");

    private final Pool pool;
    private final DeadLetters deadLetters;
    private final ErasureLog erasures;

    public TransactionalBatches(Pool pool, DeadLetters deadLetters, ErasureLog erasures) {
        this.pool = pool;
        this.deadLetters = deadLetters;
        this.erasures = erasures;
    }

    /** What a consumer does with the readable events of a batch. */
    public interface Handler<E> {

        /** The topic read, for logs. */
        String topic();

        /** Where records this handler cannot apply go. */
        String deadLetterTopic();

        Class<E> envelopeType();

        /**
         * Applies {@code events} (in topic order) on {@code tx}. Must be idempotent: claim the event ids in a ledger
         * ({@link Ledger}) in the same transaction, and write on natural keys.
         */
        Uni<Void> apply(SqlClient tx, List<Consumed<E>> events);

        /** Called after the transaction that applied {@code events} committed (live notifications, wake-ups). */
        default void committed(List<Consumed<E>> events) {
        }
    }

    /** A readable record and its envelope. */
    public record Consumed<E>(ConsumerRecord<String, Decoded> record, E envelope) {
    }

    /** Thrown by a handler that cannot apply anything yet (start-up): retried, never dead-lettered. */
    public static class NotReady extends RuntimeException {
        public NotReady(String message) {
            super(message, null, false, false);
        }
    }

    /** A polled batch as a channel with {@code batch=true} hands it over. */
    public <E> Uni<Void> process(Handler<E> handler, org.apache.kafka.clients.consumer.ConsumerRecords<String, Decoded> records) {
        List<ConsumerRecord<String, Decoded>> list = new ArrayList<>(records.count());
        records.forEach(list::add);
        return process(handler, list);
    }

    /** Applies {@code records}; completes when every record is applied, dead-lettered or found erased. */
    public <E> Uni<Void> process(Handler<E> handler, List<ConsumerRecord<String, Decoded>> records) {
        if (!erasures.caughtUp()) {
            // A rebuild from offset zero must know what was erased before it writes anything.
            return Uni.createFrom().item(erasures::caughtUp)
                    .invoke(ready -> {
                        if (!ready) {
                            throw new NotReady("the erasure log is not read yet");
                        }
                    })
                    .onFailure(NotReady.class).retry().withBackOff(Duration.ofMillis(100), Duration.ofSeconds(1))
                    .indefinitely()
                    .chain(() -> process(handler, records));
        }
        List<Decoded> values = new ArrayList<>(records.size());
        boolean unopened = false;
        for (ConsumerRecord<String, Decoded> record : records) {
            values.add(record.value());
            unopened |= record.value() != null && record.value().unopened();
        }
        return unopened ? opened(handler, records).chain(opened -> apply(handler, records, opened))
                : apply(handler, records, values);
    }

    /**
     * The batch's values with every sealed event opened: an event whose data key could not be opened when it was read
     * (not on the key topic yet, the KMS away) is tried again, off the event loop, with back-off for as long as it
     * takes. It is never dead-lettered: its key is published before it, and waiting is all it needs (ADR 0027).
     */
    private Uni<List<Decoded>> opened(Handler<?> handler, List<ConsumerRecord<String, Decoded>> records) {
        Context context = Vertx.currentContext();
        Uni<List<Decoded>> opening = Uni.createFrom().item(() -> {
            List<Decoded> values = new ArrayList<>(records.size());
            for (ConsumerRecord<String, Decoded> record : records) {
                Decoded value = record.value();
                if (value != null && value.unopened()) {
                    value = value.reopen().get();
                    if (value.unopened()) {
                        throw new NotReady(value.failure().getMessage());
                    }
                }
                values.add(value);
            }
            return values;
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .onFailure().invoke(e -> {
                    // A consumer waiting on a data key holds its offsets: operators alert on this rising.
                    Metrics.counter("hindsight.consumer.sealed.waits", "topic", handler.topic()).increment();
                    LOG.warnf("Waiting to open sealed %s events: %s", handler.topic(), e.getMessage());
                })
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely();
        return context == null ? opening : opening.emitOn(command -> context.runOnContext(ignored -> command.run()));
    }

    private <E> Uni<Void> apply(Handler<E> handler, List<ConsumerRecord<String, Decoded>> records,
            List<Decoded> values) {
        // Held until the batch is over: an erasure read meanwhile is applied only after it, so no row of the ids it
        // refuses can be committed after its deletes (ADR 0028).
        long ticket = erasures.batchBegins();
        return Uni.createFrom().deferred(() -> applyChecked(handler, records, values))
                .onTermination().invoke(() -> erasures.batchEnded(ticket));
    }

    private <E> Uni<Void> applyChecked(Handler<E> handler, List<ConsumerRecord<String, Decoded>> records,
            List<Decoded> values) {
        List<Consumed<E>> readable = new ArrayList<>(records.size());
        List<Uni<Void>> poison = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<String, Decoded> record = records.get(i);
            Decoded value = values.get(i);
            if (value != null && (value.erased() || erasedOwner(value, record.key()))) {
                // Its data key was destroyed, or its session, message, trace or tenant erased (a clear event from
                // before sealing, or one sealed under a key issued as the erasure ran): nothing of it is written,
                // and it is not poison.
                Metrics.counter("hindsight.consumer.erased", "topic", handler.topic()).increment();
            } else if (value != null && handler.envelopeType().isInstance(value.envelope())) {
                readable.add(new Consumed<>(record, handler.envelopeType().cast(value.envelope())));
            } else {
                RuntimeException why = value == null || value.failure() == null
                        ? new IllegalArgumentException("not a " + handler.envelopeType().getSimpleName())
                        : new IllegalArgumentException("unreadable: " + value.failure().getMessage(), value.failure());
                poison.add(deadLetter(handler, record, why));
            }
        }
        Uni<Void> deadLettered = Multi.createFrom().iterable(poison).onItem().transformToUniAndConcatenate(u -> u)
                .collect().last().replaceWithVoid();
        if (readable.isEmpty()) {
            return deadLettered;
        }
        Uni<Void> applied = inTransaction(handler, readable)
                .onFailure(TransactionalBatches::causedByData).recoverWithUni(batchFailure -> {
                    LOG.warnf("A batch of %d %s events failed on its data (%s); applying them one by one",
                            readable.size(), handler.topic(), batchFailure.toString());
                    return oneByOne(handler, readable);
                })
                .onFailure().invoke(e -> {
                    // A consumer that cannot apply holds its offsets: operators alert on this rising.
                    Metrics.counter("hindsight.consumer.apply.failures", "topic", handler.topic()).increment();
                    LOG.warnf("Applying %d %s events failed, retrying: %s", readable.size(), handler.topic(),
                            e.toString());
                })
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely();
        return deadLettered.chain(() -> applied);
    }

    private boolean erasedOwner(Decoded value, String recordKey) {
        if (!(value.envelope() instanceof SpecificRecordBase envelope)
                || envelope.getSchema().getField("header") == null
                || !(envelope.get("header") instanceof EventHeader header)) {
            return false;
        }
        return erasures.erased(TenantId.of(header.getTenantId()), recordKey);
    }

    private <E> Uni<Void> oneByOne(Handler<E> handler, List<Consumed<E>> events) {
        return Multi.createFrom().iterable(events).onItem().transformToUniAndConcatenate(event ->
                inTransaction(handler, List.of(event))
                        .onFailure(TransactionalBatches::causedByData)
                        .recoverWithUni(failure -> deadLetter(handler, event.record(), failure))
                        .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10))
                        .indefinitely())
                .collect().last().replaceWithVoid();
    }

    private <E> Uni<Void> inTransaction(Handler<E> handler, List<Consumed<E>> events) {
        return pool.withTransaction(tx -> handler.apply(tx, events)).invoke(() -> {
            handler.committed(events);
            recordAge(handler.topic(), events);
        });
    }

    private static <E> void recordAge(String topic, List<Consumed<E>> events) {
        Timer age = Timer.builder("hindsight.consumer.event.age")
                .description("Age of each event (from its record timestamp) when the transaction applying it committed")
                .tag("topic", topic)
                .publishPercentileHistogram()
                .register(Metrics.globalRegistry);
        long now = System.currentTimeMillis();
        for (Consumed<E> event : events) {
            long written = event.record().timestamp();
            if (written > 0) {
                age.record(Math.max(0, now - written), TimeUnit.MILLISECONDS);
            }
        }
    }

    private Uni<Void> deadLetter(Handler<?> handler, ConsumerRecord<String, Decoded> record, Throwable why) {
        return deadLetters.send(handler.deadLetterTopic(), record, why)
                .onFailure().invoke(e -> LOG.warnf("Dead-lettering failed, retrying: %s", e.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely();
    }

    /**
     * Whether a failure is the data's fault (so retrying cannot help and the event is dead-lettered) rather than the
     * infrastructure's (retried until it recovers). PostgreSQL errors are classified by SQLSTATE class: connection
     * (08), transaction rollback such as deadlock or serialization (40), resources (53), operator intervention such
     * as a restart (57), object in use (55) and system errors (58, XX) are the infrastructure; anything else
     * PostgreSQL refuses (a constraint, an invalid value) is the data. Failures outside the driver (a handler
     * refusing an event, a value it cannot map) are the data; I/O and client errors are the infrastructure.
     */
    public static boolean causedByData(Throwable failure) {
        if (failure instanceof PgException pg) {
            String state = pg.getSqlState();
            String sqlClass = state == null || state.length() < 2 ? "" : state.substring(0, 2);
            return !INFRASTRUCTURE_SQL_CLASSES.contains(sqlClass);
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
}
