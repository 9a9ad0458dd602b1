package dev.hindsight.platform.work;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class GroupCommitTest {

    /** A writer whose writes finish when the test says so, recording what each write held. */
    private static final class ManualWriter {
        final List<List<String>> writes = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<Void>> open = new CopyOnWriteArrayList<>();

        Uni<Void> write(List<String> items) {
            writes.add(List.copyOf(items));
            CompletableFuture<Void> done = new CompletableFuture<>();
            open.add(done);
            return Uni.createFrom().completionStage(done);
        }

        void finish(int write) {
            open.get(write).complete(null);
        }
    }

    @Test
    void anIdleWriterWritesAnItemAtOnceOnItsOwn() {
        List<List<String>> writes = new ArrayList<>();
        GroupCommit<String> group = new GroupCommit<>(items -> {
            writes.add(List.copyOf(items));
            return Uni.createFrom().voidItem();
        }, 100);

        group.submit("a").await().atMost(Duration.ofSeconds(1));
        group.submit("b").await().atMost(Duration.ofSeconds(1));

        assertThat(writes).containsExactly(List.of("a"), List.of("b"));
    }

    @Test
    void itemsThatArriveDuringAWriteGoTogetherIntoTheNextInOrder() {
        ManualWriter writer = new ManualWriter();
        GroupCommit<String> group = new GroupCommit<>(writer::write, 100);

        CompletableFuture<Void> first = group.submit("a").subscribeAsCompletionStage();
        List<CompletableFuture<Void>> later = new ArrayList<>();
        for (String item : List.of("b", "c", "d")) {
            later.add(group.submit(item).subscribeAsCompletionStage());
        }
        assertThat(writer.writes).containsExactly(List.of("a"));   // the others wait for the running write
        assertThat(later).noneMatch(CompletableFuture::isDone);

        writer.finish(0);
        assertThat(first).isCompleted();
        assertThat(writer.writes).containsExactly(List.of("a"), List.of("b", "c", "d"));
        assertThat(later).noneMatch(CompletableFuture::isDone);   // not before their own write finished

        writer.finish(1);
        assertThat(later).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
    }

    @Test
    void noWriteHoldsMoreThanMaxBatchItems() {
        ManualWriter writer = new ManualWriter();
        GroupCommit<String> group = new GroupCommit<>(writer::write, 2);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (String item : List.of("a", "b", "c", "d", "e")) {
            all.add(group.submit(item).subscribeAsCompletionStage());
        }
        for (int write = 0; write < 3; write++) {
            writer.finish(write);
        }
        assertThat(writer.writes).containsExactly(List.of("a"), List.of("b", "c"), List.of("d", "e"));
        assertThat(all).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
    }

    @Test
    void aFailedBatchIsRetriedItemByItemAndOnlyTheBadItemsCallerFails() {
        List<List<String>> writes = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> gate = new CompletableFuture<>();
        GroupCommit<String> group = new GroupCommit<>(items -> {
            writes.add(List.copyOf(items));
            if (items.equals(List.of("first"))) {
                return Uni.createFrom().completionStage(gate);
            }
            return items.contains("bad") ? Uni.createFrom().failure(new IllegalStateException("refused: bad"))
                    : Uni.createFrom().voidItem();
        }, 100);

        CompletableFuture<Void> first = group.submit("first").subscribeAsCompletionStage();
        CompletableFuture<Void> good1 = group.submit("good-1").subscribeAsCompletionStage();
        CompletableFuture<Void> bad = group.submit("bad").subscribeAsCompletionStage();
        CompletableFuture<Void> good2 = group.submit("good-2").subscribeAsCompletionStage();
        gate.complete(null);

        assertThat(writes).containsExactly(List.of("first"), List.of("good-1", "bad", "good-2"),
                List.of("good-1"), List.of("bad"), List.of("good-2"));
        assertThat(first).isCompleted();
        assertThat(good1).isCompleted();
        assertThat(good2).isCompleted();
        assertThatThrownBy(bad::join).hasRootCauseMessage("refused: bad");
    }

    @Test
    void aWriterThatThrowsInsteadOfFailingFailsOnlyItsCaller() {
        GroupCommit<String> group = new GroupCommit<>(items -> {
            throw new IllegalArgumentException("cannot encode " + items);
        }, 10);
        assertThatThrownBy(() -> group.submit("x").await().atMost(Duration.ofSeconds(1)))
                .hasMessageContaining("cannot encode [x]");
        // The next item is still written (the group is not stuck in "writing").
        assertThatThrownBy(() -> group.submit("y").await().atMost(Duration.ofSeconds(1)))
                .hasMessageContaining("cannot encode [y]");
    }
}
