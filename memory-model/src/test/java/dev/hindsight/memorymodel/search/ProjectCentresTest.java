package dev.hindsight.memorymodel.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ProjectCentresTest {

    private final MutableClock clock = new MutableClock();
    private final ProjectCentres<String> centres = new ProjectCentres<>(Duration.ofSeconds(60), 2, clock);
    private final AtomicInteger reads = new AtomicInteger();

    private Supplier<Uni<SearchRule.Centre>> reading(long count) {
        return () -> {
            reads.incrementAndGet();
            return Uni.createFrom().item(count == 0 ? null : new SearchRule.Centre(new float[] {count}, count));
        };
    }

    private long count(String project, long readGives) {
        SearchRule.Centre centre = centres.centre("t", project, "m", reading(readGives)).await().indefinitely();
        return centre == null ? 0 : centre.count();
    }

    @Test
    void aProjectsFirstSearchReadsItsCentreAndLaterOnesUseIt() {
        assertThat(count("p", 10)).isEqualTo(10);
        assertThat(count("p", 11)).as("known, not read again").isEqualTo(10);
        assertThat(reads).hasValue(1);
    }

    @Test
    void anOldCentreIsStillUsedWhileItIsReadAgain() {
        count("p", 10);
        clock.advance(Duration.ofSeconds(60));

        assertThat(count("p", 20)).as("the search does not wait for the new read").isEqualTo(10);
        assertThat(reads).hasValue(2);
        assertThat(count("p", 30)).as("the read finished and is kept").isEqualTo(20);
        assertThat(reads).as("fresh again: no third read").hasValue(2);
    }

    @Test
    void aFailedReadKeepsTheOldCentreAndIsTriedAgain() {
        count("p", 10);
        clock.advance(Duration.ofSeconds(61));
        SearchRule.Centre kept = centres.centre("t", "p", "m",
                () -> Uni.createFrom().failure(new IllegalStateException("down"))).await().indefinitely();
        assertThat(kept.count()).isEqualTo(10);
        assertThat(count("p", 20)).as("still old, so read again").isEqualTo(10);
        assertThat(count("p", 30)).isEqualTo(20);
    }

    @Test
    void aProjectWithoutVectorsHasNoCentreAndIsReadAgainNextTime() {
        assertThat(count("empty", 0)).isZero();
        assertThat(count("empty", 3)).isEqualTo(3);
        assertThat(reads).hasValue(2);
    }

    @Test
    void projectsModelsAndTenantsHaveTheirOwnCentres() {
        count("p", 10);
        assertThat(centres.centre("t", "p", "other-model", reading(5)).await().indefinitely().count()).isEqualTo(5);
        assertThat(centres.centre("u", "p", "m", reading(7)).await().indefinitely().count()).isEqualTo(7);
    }

    @Test
    void pastItsCapacityTheCacheStartsAgain() {
        count("a", 1);
        count("b", 2);
        count("c", 3);
        assertThat(count("a", 4)).as("forgotten when c came, so read again").isEqualTo(4);
        assertThat(count("c", 5)).as("c came after the restart: still known").isEqualTo(3);
        count("d", 6);
        assertThat(count("c", 7)).as("d found it full again").isEqualTo(7);
    }
}
