package dev.hindsight.memorymodel.search;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * One service's view of its vector generations (design.md § Re-embedding): the model searches use now, updated from
 * how many memories each model's vectors cover ({@link VectorGenerations#searchModel}), and since when. Thread-safe;
 * the service refreshes it on a period from its own tables.
 */
public final class SearchModel {

    /** A snapshot: the model searches use, the configured one, and the counts it was decided from. */
    public record State(String current, String preferred, long memories, Map<String, Long> vectors, Instant since) {

        /** The configured model's generation covers fewer memories than there are: vectors are being built. */
        public boolean building() {
            return vectors.getOrDefault(preferred, 0L) < memories;
        }

        /** Vectors of models other than the current one are still stored. */
        public boolean retiredLeft() {
            return vectors.keySet().stream().anyMatch(model -> !model.equals(current));
        }
    }

    private final String preferred;
    private final Clock clock;
    private volatile State state;

    public SearchModel(String preferred, Clock clock) {
        this.preferred = preferred;
        this.clock = clock;
        this.state = new State(preferred, preferred, 0, Map.of(), clock.instant());
    }

    /** The model a search embeds its query with and compares vectors of. */
    public String current() {
        return state.current();
    }

    public String preferred() {
        return preferred;
    }

    public State state() {
        return state;
    }

    /**
     * Takes new counts; answers whether searches switched model. {@code memories} is how many memories there are
     * (the vectors of a memory deleted meanwhile are deleted with it).
     */
    public synchronized boolean update(long memories, Map<String, Long> vectors) {
        String next = VectorGenerations.searchModel(preferred, vectors);
        State before = state;
        boolean switched = !next.equals(before.current());
        state = new State(next, preferred, memories, Map.copyOf(vectors), switched ? clock.instant() : before.since());
        return switched;
    }

    /**
     * Whether the other models' vectors may be deleted: searches have used the configured model for {@code grace}
     * here, longer than any replica takes to notice the switch, so no search still reads them.
     */
    public boolean mayRetireOthers(Duration grace) {
        State now = state;
        return now.current().equals(preferred) && now.retiredLeft()
                && !now.since().plus(grace).isAfter(clock.instant());
    }
}
