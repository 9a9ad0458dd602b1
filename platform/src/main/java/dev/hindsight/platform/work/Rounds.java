package dev.hindsight.platform.work;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Runs a unit of background work (a round) on a period and whenever it is woken, never two rounds at once: a wake-up
 * during a round runs one more round after it, and a round that says there is more to do is followed at once. A
 * failed round is logged and retried on the next tick. evaluation-service's outbox relay, shadow evaluator and insight
 * worker are each one, and memory-service's job worker.
 */
public final class Rounds {

    private static final Logger LOG = Logger.getLogger(Rounds.class);

    private final Vertx vertx;
    private final Duration every;
    private final String name;
    private final Supplier<Uni<Boolean>> round;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private volatile boolean stopped;
    private long timer = -1;

    /** @param round one round; completes with true when more work is known to be waiting */
    public Rounds(Vertx vertx, Duration every, String name, Supplier<Uni<Boolean>> round) {
        this.vertx = vertx;
        this.every = every;
        this.name = name;
        this.round = round;
    }

    public void start() {
        timer = vertx.setPeriodic(every.toMillis(), every.toMillis(), id -> wake());
    }

    public void stop() {
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
        round.get().subscribe().with(more -> {
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
