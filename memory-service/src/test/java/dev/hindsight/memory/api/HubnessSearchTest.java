package dev.hindsight.memory.api;

import static dev.hindsight.testing.TestTenants.TENANT_A;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.SameSubjectMemories;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Search with hubness configured (design.md § Semantic search; off by default): in a project whose memories all say
 * much the same thing, a question that shares its words with the crowd gets the lesson first, which relevance alone
 * ranks 4th behind memories of the crowd, each close to many others ({@link SameSubjectMemories}).
 */
@QuarkusTest
@TestProfile(HubnessSearchTest.Hubness.class)
@QuarkusTestResource(HindsightTestResource.class)
class HubnessSearchTest {

    /** memory-service with candidates ordered by relevance less half their hubness. */
    public static class Hubness implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hindsight.memory.search.hubness", "0.5");
        }
    }

    @Test
    void aLessonAmongACrowdOfAlikeMemoriesComesFirst() {
        String project = Memories.project();
        String id = Memories.recordSameSubject(TENANT_A, project);

        List<String> found = Memories.search(TENANT_A, project, SameSubjectMemories.QUESTION_NEAR_THE_CROWD, 3, null)
                .getList("memories.id", String.class);

        assertThat(found).first().isEqualTo(id);
    }
}
