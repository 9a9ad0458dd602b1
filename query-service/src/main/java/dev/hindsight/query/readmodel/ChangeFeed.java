package dev.hindsight.query.readmodel;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * What the live projection committed, told to every query-service replica (ADR 0009). The projection announces its
 * changes with PostgreSQL {@code NOTIFY} inside the transaction that makes them, so they are delivered exactly when
 * the transaction commits, and to every replica listening, whichever replica's partitions they came from. Each replica
 * holds one connection that {@code LISTEN}s: heard changes drop cached answers (its {@link ChangeListener}, the read
 * cache) and go to the live stream. While the connection is down the cache is closed, and it reopens empty once
 * listening again. The listening connection is taken from the service's own pool, so it has the datasource's
 * credentials and TLS settings, and kept for as long as it lives (one connection fewer for queries).
 */
@ApplicationScoped
public class ChangeFeed {

    private static final Logger LOG = Logger.getLogger(ChangeFeed.class);
    public static final String CHANNEL = "hindsight_query_changes";
    private static final String NOTIFY = "SELECT pg_notify('" + CHANNEL + "', payload) FROM unnest($1::text[]) AS payload";
    private static final Duration RETRY_MIN = Duration.ofMillis(250);
    private static final Duration RETRY_MAX = Duration.ofSeconds(10);
    /** How often the listening connection proves it is alive; a connection silently cut would hear nothing. */
    private static final Duration PING_EVERY = Duration.ofSeconds(5);

    private final Pool pool;
    private final Vertx vertx;
    private final ChangeListener cache;
    private final BroadcastProcessor<Change> live = BroadcastProcessor.create();
    private volatile Listener listening;
    private volatile boolean stopped;
    private int failures;
    private long pinger = -1;

    /** One listening connection, given up at most once. */
    private final class Listener {
        final SqlConnection connection;
        final AtomicBoolean lost = new AtomicBoolean();

        Listener(SqlConnection connection) {
            this.connection = connection;
        }

        /** Stops relying on this connection: the cache closes, and another connection is sought. */
        void giveUp(String why, boolean close) {
            if (!lost.compareAndSet(false, true)) {
                return;
            }
            // Closed first: no read may find the cache open once this replica has stopped listening.
            cache.close();
            if (listening == this) {
                listening = null;
            }
            if (close) {
                connection.close();
            }
            if (!stopped) {
                LOG.warnf("Stopped hearing read-model changes (%s): read cache closed until listening again", why);
                retry(null);
            }
        }
    }

    public ChangeFeed(Pool pool, Vertx vertx, ChangeListener cache) {
        this.pool = pool;
        this.vertx = vertx;
        this.cache = cache;
        Gauge.builder("hindsight.query.change.feed.listening", this, feed -> feed.listening != null ? 1 : 0)
                .description("1 while this replica hears the projection's changes (its read cache is open)")
                .register(Metrics.globalRegistry);
    }

    /**
     * Announces {@code changes} on the projection's transaction {@code tx}: delivered to every replica when, and
     * only if, it commits.
     */
    public Uni<Void> announce(SqlClient tx, List<Change> changes) {
        if (changes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String[] payloads = ChangeCodec.encode(changes).toArray(String[]::new);
        return tx.preparedQuery(NOTIFY).execute(Tuple.of(payloads)).replaceWithVoid();
    }

    /** Changes heard from now on, without the ones that only concern caches (hot: nothing is replayed). */
    public Multi<Change> changes() {
        return live;
    }

    /** Whether this replica hears changes now. */
    public boolean isListening() {
        return listening != null;
    }

    /** The PostgreSQL backend process of the listening connection, if there is one (operators, tests). */
    public OptionalInt listenerProcessId() {
        Listener current = listening;
        return current == null ? OptionalInt.empty()
                : OptionalInt.of(PgConnection.cast(current.connection).processId());
    }

    void start(@Observes StartupEvent event) {
        listen();
        pinger = vertx.setPeriodic(PING_EVERY.toMillis(), id -> ping());
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        vertx.cancelTimer(pinger);
        Listener current = listening;
        if (current != null) {
            current.giveUp("shutting down", true);
        }
    }

    private void listen() {
        if (stopped) {
            return;
        }
        pool.getDelegate().getConnection().onComplete(connected -> {
            if (connected.failed()) {
                retry(connected.cause());
                return;
            }
            Listener listener = new Listener(connected.result());
            PgConnection.cast(listener.connection).notificationHandler(notification -> {
                if (CHANNEL.equals(notification.getChannel()) && !listener.lost.get()) {
                    heard(notification.getPayload());
                }
            });
            listener.connection.closeHandler(closed -> listener.giveUp("the connection closed", false));
            listener.connection.query("LISTEN " + CHANNEL).execute().onComplete(listened -> {
                if (listened.failed()) {
                    if (listener.lost.compareAndSet(false, true)) {
                        listener.connection.close();
                        retry(listened.cause());
                    }
                    return;
                }
                if (listener.lost.get()) {
                    return;
                }
                listening = listener;
                failures = 0;
                cache.open();
                LOG.infof("Listening for read-model changes on %s", CHANNEL);
            });
        });
    }

    private void retry(Throwable failure) {
        if (stopped) {
            return;
        }
        failures++;
        long delay = Math.min(RETRY_MAX.toMillis(), RETRY_MIN.toMillis() << Math.min(failures - 1, 6));
        if (failure != null) {
            LOG.warnf("Cannot listen for read-model changes yet (%s); retrying in %d ms", failure.toString(), delay);
        }
        vertx.setTimer(delay, id -> listen());
    }

    /**
     * Proves the listening connection alive; one that does not answer in time is given up (handed back to the pool,
     * which drops it if it is broken) and replaced.
     */
    private void ping() {
        Listener listener = listening;
        if (listener == null) {
            return;
        }
        AtomicBoolean answered = new AtomicBoolean();
        long deadline = vertx.setTimer(PING_EVERY.toMillis(), id -> {
            if (!answered.get()) {
                listener.giveUp("the connection did not answer a ping", true);
            }
        });
        listener.connection.query("SELECT 1").execute().onComplete(done -> {
            answered.set(true);
            vertx.cancelTimer(deadline);
            if (done.failed()) {
                listener.giveUp("the connection failed a ping: " + done.cause(), true);
            }
        });
    }

    private void heard(String payload) {
        List<Change> changes = ChangeCodec.decode(payload);
        cache.invalidate(changes);
        synchronized (live) {
            for (Change change : changes) {
                if (!Change.MESSAGE_SUMMARIZED.equals(change.kind()) && !ChangeCodec.EVERYTHING.equals(change.kind())) {
                    live.onNext(change);
                }
            }
        }
    }
}
