package dev.hindsight.memorymodel.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VectorSearchTest {

    private final List<Boolean> searches = new ArrayList<>();

    /** A search that finds {@code byIndex} rows through the index and {@code exactly} rows exactly. */
    private int search(long projectSize, int byIndex, int exactly) {
        return VectorSearch.nearest(new SearchRule.Centre(new float[] {1}, projectSize), 40, exact -> {
            searches.add(exact);
            return Uni.createFrom().item(exact ? exactly : byIndex);
        }, Integer::intValue).await().indefinitely();
    }

    @Test
    void aSmallProjectIsSearchedExactlyOnce() {
        assertThat(search(10_000, 0, 40)).isEqualTo(40);
        assertThat(searches).containsExactly(true);
    }

    @Test
    void aLargerProjectIsSearchedThroughTheIndex() {
        assertThat(search(10_001, 40, 40)).isEqualTo(40);
        assertThat(searches).containsExactly(false);
    }

    @Test
    void aLargerProjectWhoseIndexSearchCameBackShortIsSearchedAgainExactly() {
        assertThat(search(50_000, 3, 40)).isEqualTo(40);
        assertThat(searches).containsExactly(false, true);
    }

    @Test
    void theStatementsUseTheIndexOperatorOrTheFunctionNoIndexServes() {
        assertThat(VectorSearch.nearest("t", false)).contains("ORDER BY embedding <=> $4::vector LIMIT $5")
                .contains("FROM t WHERE tenant_id = $1 AND project_id = $2 AND model_id = $3");
        assertThat(VectorSearch.nearest("t", true)).contains("ORDER BY cosine_distance(embedding, $4::vector)")
                .doesNotContain("<=>");
        assertThat(VectorSearch.centre("t")).contains("avg(embedding)").contains("LIMIT $4");
    }
}
