package dev.hindsight.memorymodel.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SearchModelTest {

    private final MutableClock clock = new MutableClock();

    @Test
    void aNewGenerationBuildsWhileSearchesUseThePreviousOneThenSwitchesAndRetiresItAfterTheGrace() {
        SearchModel model = new SearchModel("new", clock);
        assertThat(model.preferred()).isEqualTo("new");
        assertThat(model.update(100, Map.of("old", 100L))).isTrue();
        assertThat(model.current()).isEqualTo("old");
        assertThat(model.state().building()).isTrue();
        assertThat(model.mayRetireOthers(Duration.ZERO)).isFalse();

        assertThat(model.update(100, Map.of("old", 100L, "new", 60L))).isFalse();
        assertThat(model.current()).isEqualTo("old");

        clock.advance(Duration.ofSeconds(5));
        assertThat(model.update(100, Map.of("old", 100L, "new", 100L))).isTrue();
        assertThat(model.current()).isEqualTo("new");
        assertThat(model.state().building()).isFalse();
        assertThat(model.state().since()).isEqualTo(clock.instant());
        assertThat(model.mayRetireOthers(Duration.ofMinutes(1))).isFalse();

        clock.advance(Duration.ofMinutes(1));
        assertThat(model.mayRetireOthers(Duration.ofMinutes(1))).isTrue();
        assertThat(model.update(100, Map.of("new", 100L))).isFalse();
        assertThat(model.mayRetireOthers(Duration.ofMinutes(1))).as("nothing left to retire").isFalse();
    }

    @Test
    void aMemoryRecordedMeanwhileIsBuildingAgainWithoutSwitchingBack() {
        SearchModel model = new SearchModel("new", clock);
        model.update(100, Map.of("new", 100L));
        assertThat(model.update(101, Map.of("new", 100L, "old", 1L))).isFalse();
        assertThat(model.current()).isEqualTo("new");
        assertThat(model.state().building()).isTrue();
    }

    @Test
    void theSinceOfAStateIsKeptAcrossUpdatesThatDoNotSwitch() {
        SearchModel model = new SearchModel("m", clock);
        Instant start = clock.instant();
        clock.advance(Duration.ofSeconds(30));
        model.update(5, Map.of("m", 5L));
        assertThat(model.state().since()).isEqualTo(start);
    }
}
