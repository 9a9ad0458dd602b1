package dev.hindsight.platform.work;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * A unit of background work run in rounds for as long as the application runs: on a period and whenever it is woken,
 * never two rounds at once. A wake-up during a round runs one more round after it, and a round that says there is
 * more to do is followed at once. A failed round is logged and retried on the next tick. A worker (an outbox relay, a
 * job runner, a pruner) extends it and says only what one round does; {@link BackgroundWorkLifecycle} starts every
 * worker after start-up and stops it at shut-down. Workers are {@code @Singleton}: a client proxy would start and stop
 * itself instead of the worker.
 */
public abstract class BackgroundWork {

    private static final Logger LOG = Logger.getLogger(BackgroundWork.class);

    private final Vertx vertx;
    private final Duration every;
    private final String name;
    private final boolean roundAtStart;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private volatile boolean stopped;
    private long timer = -1;

    /**
     * @param name what a round does, for the log
     * @param roundAtStart whether a round runs at once at start-up rather than after the first period
     */
    protected BackgroundWork(Vertx vertx, Duration every, String name, boolean roundAtStart) {
        this.vertx = vertx;
        this.every = every;
        this.name = name;
        this.roundAtStart = roundAtStart;
    }

    /** One round; completes with true when more work is known to be waiting. */
    protected abstract Uni<Boolean> oneRound();

    void start() {
        timer = vertx.setPeriodic(every.toMillis(), every.toMillis(), id -> wake());
        if (roundAtStart) {
            wake();
        }
    }

    void stop() {
        stopped = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** Runs a round now, or right after the one running. */
    public void wake() {
        if (stopped) {
            return;
        }
        if (!running.compareAndSet(false, true)) {
            again.set(true);
            return;
        }
        again.set(false);
        oneRound().subscribe().with(more -> {
            running.set(false);
            if (more || again.get()) {
                wake();
            }
        }, failure -> {
            running.set(false);
            LOG.warnf("%s failed, retrying on the next tick: %s", name, failure.toString());
        });
    }
}
