package dev.hindsight.platform.erasure;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Hands every erasure read from the log to the service's {@link ErasureApplier}, one at a time in log order on a
 * thread of its own, retrying with back-off while the database is away, then says on the log that this service
 * applied it. A service without an applier (ingest) does nothing here.
 */
@ApplicationScoped
class ErasureWorker {

    private static final Logger LOG = Logger.getLogger(ErasureWorker.class);

    private final Instance<ErasureApplier> appliers;
    private final ErasureLog log;
    private final ErasurePublisher publisher;
    private final String service;
    private ExecutorService thread;
    private volatile boolean running;
    /** Erasures handed over and not applied yet. */
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();

    ErasureWorker(Instance<ErasureApplier> appliers, ErasureLog log, Instance<ErasurePublisher> publisher,
            @ConfigProperty(name = "quarkus.application.name") String service) {
        this.appliers = appliers;
        this.log = log;
        this.publisher = appliers.isResolvable() ? publisher.get() : null;
        this.service = service;
    }

    void onStart(@Observes StartupEvent event) {
        if (!appliers.isResolvable()) {
            return;
        }
        running = true;
        thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hindsight-erasures");
            t.setDaemon(true);
            return t;
        });
        ErasureApplier applier = appliers.get();
        log.onRequested(erasure -> {
            pending.incrementAndGet();
            thread.execute(() -> {
                try {
                    apply(applier, erasure);
                } finally {
                    pending.decrementAndGet();
                }
            });
        });
    }

    /** Whether every erasure read so far is applied here (always, in a service without an applier). */
    boolean idle() {
        return pending.get() == 0;
    }

    void onStop(@Observes ShutdownEvent event) {
        running = false;
        if (thread != null) {
            thread.shutdownNow();
        }
    }

    private void awaitCaughtUp() {
        while (running && !log.caughtUp()) {
            try {
                TimeUnit.MILLISECONDS.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void apply(ErasureApplier applier, ErasureLog.Erasure erasure) {
        // A batch that checked its events before this erasure's ids were refused may still commit rows of them:
        // deleting after it is over leaves none (every later batch refuses them).
        while (running && !log.earlierBatchesOver(erasure)) {
            try {
                TimeUnit.MILLISECONDS.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        Duration wait = Duration.ofMillis(200);
        while (running) {
            try {
                Optional<Map<String, Long>> erased = applier.apply(erasure).await().atMost(Duration.ofMinutes(5));
                if (erased.isEmpty()) {
                    // Applied before (by another replica, or before a restart): said already, unless this replica
                    // stopped in between. The log is read to its end first, or each start would say it again.
                    awaitCaughtUp();
                }
                if (erased.isPresent() || !erasure.applied().containsKey(service)) {
                    publisher.publish(erasure.tenant(), erasure.id(), service,
                            dev.hindsight.events.erasures.ErasureApplied.newBuilder().setService(service)
                                    .setErased(erased.map(Map::copyOf).orElse(Map.of())).build())
                            .await().atMost(Duration.ofMinutes(1));
                }
                LOG.infof("Erasure %s %s", erasure.id(), erased.isPresent() ? "applied" : "was applied before");
                return;
            } catch (RuntimeException e) {
                LOG.warnf("Applying erasure %s failed, retrying in %d ms: %s", erasure.id(), wait.toMillis(),
                        e.toString());
                try {
                    TimeUnit.MILLISECONDS.sleep(wait.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
                wait = wait.multipliedBy(2).compareTo(Duration.ofSeconds(10)) > 0 ? Duration.ofSeconds(10)
                        : wait.multipliedBy(2);
            }
        }
    }
}
