package dev.hindsight.platform.work;

import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Group commit: items submitted one at a time by independent callers are written together, one write (typically one
 * database transaction) at a time. While a write runs, new items wait and go into the next one, so an idle system
 * writes each item at once and a busy one writes many per transaction instead of committing per item. Each caller's
 * {@link #submit} completes when the write holding its item has finished.
 *
 * <p>If a write of several items fails, each of them is written again on its own, so one bad item fails only its own
 * caller. At most {@code maxBatch} items go into one write.
 */
public final class GroupCommit<T> {

    private record Pending<T>(T item, CompletableFuture<Void> done) {
    }

    private final Function<List<T>, Uni<Void>> write;
    private final int maxBatch;
    private final Queue<Pending<T>> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    /** {@code write} writes a batch (in one transaction) and completes when it is durable. */
    public GroupCommit(Function<List<T>, Uni<Void>> write, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1");
        }
        this.write = write;
        this.maxBatch = maxBatch;
    }

    /** Writes {@code item} with whatever else is waiting; completes when it has been written. */
    public Uni<Void> submit(T item) {
        return Uni.createFrom().deferred(() -> {
            Pending<T> pending = new Pending<>(item, new CompletableFuture<>());
            waiting.add(pending);
            drain();
            return Uni.createFrom().completionStage(pending.done());
        });
    }

    private void drain() {
        if (waiting.isEmpty() || !writing.compareAndSet(false, true)) {
            return;
        }
        List<Pending<T>> batch = new ArrayList<>();
        Pending<T> next;
        while (batch.size() < maxBatch && (next = waiting.poll()) != null) {
            batch.add(next);
        }
        if (batch.isEmpty()) {
            writing.set(false);
            drain();   // an item may have arrived after the check
            return;
        }
        writeBatch(batch).subscribe().with(done -> {
            writing.set(false);
            drain();
        }, failure -> {
            writing.set(false);
            drain();
        });
    }

    private Uni<Void> writeBatch(List<Pending<T>> batch) {
        return invoke(batch.stream().map(Pending::item).toList())
                .invoke(() -> batch.forEach(p -> p.done().complete(null)))
                .onFailure().recoverWithUni(failure -> {
                    if (batch.size() == 1) {
                        batch.get(0).done().completeExceptionally(failure);
                        return Uni.createFrom().voidItem();
                    }
                    // One at a time, in order: only the items that fail on their own fail their callers.
                    Uni<Void> alone = Uni.createFrom().voidItem();
                    for (Pending<T> pending : batch) {
                        alone = alone.chain(() -> invoke(List.of(pending.item()))
                                .invoke(() -> pending.done().complete(null))
                                .onFailure().recoverWithItem(single -> {
                                    pending.done().completeExceptionally(single);
                                    return null;
                                }));
                    }
                    return alone;
                });
    }

    private Uni<Void> invoke(List<T> items) {
        try {
            return write.apply(items);
        } catch (RuntimeException e) {
            return Uni.createFrom().failure(e);
        }
    }
}
