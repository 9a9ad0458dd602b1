package dev.hindsight.memory.api;

import static dev.hindsight.testing.TestTenants.TENANT_A;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.HubnessProfile;
import dev.hindsight.testing.SameSubjectMemories;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Search with hubness configured (design.md § Semantic search; off by default): in a project whose memories all say
 * much the same thing, a question that shares its words with the crowd gets the lesson first, which relevance alone
 * ranks 4th behind memories of the crowd, each close to many others ({@link SameSubjectMemories}).
 */
@QuarkusTest
@TestProfile(HubnessProfile.class)
@QuarkusTestResource(HindsightTestResource.class)
class HubnessSearchTest {

    @Test
    void aLessonAmongACrowdOfAlikeMemoriesComesFirst() {
        String project = Memories.project();
        String id = Memories.recordSameSubject(TENANT_A, project);

        List<String> found = Memories.search(TENANT_A, project, SameSubjectMemories.QUESTION_NEAR_THE_CROWD, 3, null)
                .getList("memories.id", String.class);

        assertThat(found).first().isEqualTo(id);
    }
}
