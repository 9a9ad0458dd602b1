package dev.hindsight.memory.bank;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Where a request's time goes: {@code hindsight_memory_stage_seconds{operation, stage}} times each step of a record
 * or a search (embed, publish, apply, read, nearest, load), so an operator can tell the model from Kafka from
 * PostgreSQL without a profiler (docs/benchmarks.md reads it the same way).
 */
final class Stages {

    private static final ConcurrentHashMap<String, Timer> TIMERS = new ConcurrentHashMap<>();

    private Stages() {
    }

    /** Runs {@code work} when subscribed and records how long it took to succeed or fail. */
    static <T> Uni<T> timed(String operation, String stage, Supplier<Uni<T>> work) {
        Timer timer = TIMERS.computeIfAbsent(operation + '/' + stage, key -> Timer.builder("hindsight.memory.stage")
                .description("Time spent in one stage of a memory operation")
                .tag("operation", operation).tag("stage", stage)
                .publishPercentileHistogram()
                .register(Metrics.globalRegistry));
        return Uni.createFrom().deferred(() -> {
            long start = System.nanoTime();
            return work.get().onTermination().invoke(() -> timer.record(System.nanoTime() - start,
                    TimeUnit.NANOSECONDS));
        });
    }
}
