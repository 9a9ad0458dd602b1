package dev.hindsight.platform.work;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.util.List;

/** Starts every {@link BackgroundWork} of the application after start-up and stops it at shut-down. */
@ApplicationScoped
class BackgroundWorkLifecycle {

    private final Instance<BackgroundWork> workers;

    BackgroundWorkLifecycle(@Any Instance<BackgroundWork> workers) {
        this.workers = workers;
    }

    void start(@Observes StartupEvent event) {
        all().forEach(BackgroundWork::start);
    }

    void stop(@Observes ShutdownEvent event) {
        all().forEach(BackgroundWork::stop);
    }

    private List<BackgroundWork> all() {
        return workers.stream().toList();
    }
}
