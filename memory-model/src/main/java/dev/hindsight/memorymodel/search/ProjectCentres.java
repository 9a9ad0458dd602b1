package dev.hindsight.memorymodel.search;

import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Each project's {@linkplain SearchRule.Centre centre} for each model, as one service replica last read it from its
 * store. A centre is the mean of thousands of vectors and moves slowly, so a search uses the one it has and, when it
 * is older than {@code maxAge}, reads it again in the background (one read per project at a time; a failed read keeps
 * the old centre). Only a project's first search waits for the read. The number of projects kept is bounded: past
 * {@code capacity}, the cache starts again empty. Projects belong to an owner of type {@code O} (a service's tenant).
 */
public final class ProjectCentres<O> {

    private record Key(Object owner, String project, String model) {
    }

    private record Known(SearchRule.Centre centre, long readAt) {
    }

    private final Map<Key, Known> known = new ConcurrentHashMap<>();
    private final Set<Key> reading = ConcurrentHashMap.newKeySet();
    private final long maxAgeMillis;
    private final int capacity;
    private final Clock clock;

    public ProjectCentres(Duration maxAge, int capacity, Clock clock) {
        this.maxAgeMillis = maxAge.toMillis();
        this.capacity = capacity;
        this.clock = clock;
    }

    /**
     * The centres a search uses: each read again once {@link SearchRule#CENTRE_MAX_AGE} old, at most
     * {@link SearchRule#CENTRES_KEPT} projects.
     */
    public static <O> ProjectCentres<O> forSearch() {
        return new ProjectCentres<>(SearchRule.CENTRE_MAX_AGE, SearchRule.CENTRES_KEPT, Clock.systemUTC());
    }

    /**
     * The centre of {@code owner}'s project for {@code model}: the one known, or, the first time, the one {@code read} gives (null when
     * the project has no vector of that model yet, which is not kept, so the next search reads again).
     */
    public Uni<SearchRule.Centre> centre(O owner, String project, String model,
            Supplier<Uni<SearchRule.Centre>> read) {
        Key key = new Key(owner, project, model);
        Known current = known.get(key);
        if (current == null) {
            return read.get().invoke(centre -> keep(key, centre));
        }
        if (clock.millis() - current.readAt() >= maxAgeMillis && reading.add(key)) {
            read.get().subscribe().with(centre -> {
                keep(key, centre);
                reading.remove(key);
            }, failure -> reading.remove(key));
        }
        return Uni.createFrom().item(current.centre());
    }

    private void keep(Key key, SearchRule.Centre centre) {
        if (centre == null) {
            return;
        }
        if (known.size() >= capacity && !known.containsKey(key)) {
            known.clear();
        }
        known.put(key, new Known(centre, clock.millis()));
    }
}
