package dev.hindsight.memory.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.memory.confidence.ConfidenceModel;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SearchRuleTest {

    private record Memory(String name, double confidence) {
    }

    private record Hit(String name, double similarity) {
    }

    private static final UUID A = UUID.randomUUID();
    private static final UUID B = UUID.randomUUID();
    private static final UUID C = UUID.randomUUID();
    private static final UUID D = UUID.randomUUID();

    @Test
    void theDefaultsAreSeed004s() {
        assertThat(Double.parseDouble(SearchRule.DEFAULT_MIN_CONFIDENCE)).isEqualTo(ConfidenceModel.MIN_CONFIDENCE);
        assertThat(Integer.parseInt(SearchRule.DEFAULT_CANDIDATES_PER_RESULT)).isEqualTo(4);
    }

    @Test
    void candidatesGrowWithTheLimitUpToTheCap() {
        assertThat(SearchRule.candidates(10, 4)).isEqualTo(40);
        assertThat(SearchRule.candidates(10, 0)).as("at least one candidate per result").isEqualTo(10);
        assertThat(SearchRule.candidates(300, 4)).isEqualTo(SearchRule.MAX_CANDIDATES);
        assertThat(SearchRule.candidates(250, 4)).isEqualTo(1000);
        assertThat(SearchRule.candidates(249, 4)).isEqualTo(996);
    }

    @Test
    void rankKeepsConfidentExistingMemoriesMostSimilarFirst() {
        // Neighbours arrive in relaxed order (pgvector's iterative scan); C's memory is gone; B is below the minimum.
        List<Neighbour> neighbours = List.of(new Neighbour(A, 0.61), new Neighbour(B, 0.95), new Neighbour(C, 0.9),
                new Neighbour(D, 0.8));
        Map<UUID, Memory> memories = Map.of(A, new Memory("a", 0.8), B, new Memory("b", 0.69),
                D, new Memory("d", 0.7));

        List<Hit> hits = SearchRule.rank(neighbours, memories, Memory::confidence, 0.7, 10,
                (m, similarity) -> new Hit(m.name(), similarity));

        assertThat(hits).containsExactly(new Hit("d", 0.8), new Hit("a", 0.61));
    }

    @Test
    void rankStopsAtTheLimitAfterFiltering() {
        List<Neighbour> neighbours = List.of(new Neighbour(A, 0.9), new Neighbour(B, 0.8), new Neighbour(C, 0.7));
        Map<UUID, Memory> memories = Map.of(A, new Memory("a", 0.1), B, new Memory("b", 0.9), C, new Memory("c", 0.9));

        assertThat(SearchRule.rank(neighbours, memories, Memory::confidence, 0.7, 1, (m, s) -> m.name()))
                .containsExactly("b");
        assertThat(SearchRule.rank(List.of(), memories, Memory::confidence, 0.7, 5, (m, s) -> m.name())).isEmpty();
    }

    @Test
    void aMemoryIsEmbeddedFromItsTitleDescriptionAndContent() {
        assertThat(SearchRule.embeddingText("Retry", "with backoff", "Wait 1 s, then 2 s."))
                .isEqualTo("Retry. with backoff. Wait 1 s, then 2 s.");
        assertThat(SearchRule.embeddingText("Retry", " ", "Wait.")).isEqualTo("Retry. Wait.");
        assertThat(SearchRule.embeddingText("Retry", null, "Wait.")).isEqualTo("Retry. Wait.");
    }

    @Test
    void vectorsTravelInPgvectorsTextForm() {
        assertThat(SearchRule.vectorLiteral(new float[] {0.5f, -1.25f, 3e-8f})).isEqualTo("[0.5,-1.25,3.0E-8]");
        assertThat(SearchRule.vectorLiteral(new float[0])).isEqualTo("[]");
    }
}
