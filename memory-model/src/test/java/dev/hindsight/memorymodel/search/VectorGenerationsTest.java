package dev.hindsight.memorymodel.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class VectorGenerationsTest {

    @Test
    void anEmptyBankSearchesWithTheConfiguredModel() {
        assertThat(VectorGenerations.searchModel("new", Map.of())).isEqualTo("new");
    }

    @Test
    void searchesKeepThePreviousModelWhileTheNewGenerationIsIncomplete() {
        assertThat(VectorGenerations.searchModel("new", Map.of("old", 1000L, "new", 999L))).isEqualTo("old");
        assertThat(VectorGenerations.searchModel("new", Map.of("old", 1000L))).isEqualTo("old");
    }

    @Test
    void searchesSwitchWhenTheNewGenerationCoversAsManyMemories() {
        assertThat(VectorGenerations.searchModel("new", Map.of("old", 1000L, "new", 1000L))).isEqualTo("new");
    }

    @Test
    void aMemoryRecordedWithThePreviousModelAfterTheSwitchDoesNotSwitchBack() {
        // The previous generation is being retired: one late memory carries only its vector.
        assertThat(VectorGenerations.searchModel("new", Map.of("old", 1L, "new", 1000L))).isEqualTo("new");
    }

    @Test
    void goingBackToAModelIsTheSameOperation() {
        assertThat(VectorGenerations.searchModel("old", Map.of("new", 1000L, "old", 10L))).isEqualTo("new");
        assertThat(VectorGenerations.searchModel("old", Map.of("new", 1000L, "old", 1000L))).isEqualTo("old");
    }

    @Test
    void theTextVersionChangesWithTheDescriptionOrTheContentAndTellsTheirBoundary() {
        String v = VectorGenerations.textVersion("a description", "the content");
        assertThat(v).hasSize(32).matches("[0-9a-f]+");
        assertThat(VectorGenerations.textVersion("a description", "the content")).isEqualTo(v);
        assertThat(VectorGenerations.textVersion("a description", "the content, merged")).isNotEqualTo(v);
        assertThat(VectorGenerations.textVersion(null, "the content")).isEqualTo(VectorGenerations.textVersion("", "the content"));
        assertThat(VectorGenerations.textVersion("ab", "c")).isNotEqualTo(VectorGenerations.textVersion("a", "bc"));
        // PostgreSQL's md5(coalesce(description, '') || chr(31) || content) of the same texts (psql, UTF-8 database).
        assertThat(VectorGenerations.textVersion("d", "c")).isEqualTo("fca2d27a7f8b210ebcb013473f092a2e");
        assertThat(VectorGenerations.textVersion("\u00e9", "\u00fc")).isEqualTo("f2d4083a7f1f03479520c3623c988012");
    }
}
