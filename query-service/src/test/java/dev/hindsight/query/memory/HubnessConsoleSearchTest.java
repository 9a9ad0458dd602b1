package dev.hindsight.query.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.query.console.SignedIn;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.HubnessProfile;
import dev.hindsight.testing.SameSubjectMemories;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The console's search with hubness configured (design.md § Semantic search; off by default) ranks as memory-service's
 * does with the same setting: in a project whose memories all say much the same thing, a question that shares its words
 * with the crowd finds the lesson first, which relevance alone ranks behind memories of the crowd.
 */
@QuarkusTest
@TestProfile(HubnessProfile.class)
@QuarkusTestResource(HindsightTestResource.class)
class HubnessConsoleSearchTest {

    @Inject
    Embeddings embeddings;

    @Test
    void aLessonAmongACrowdOfAlikeMemoriesComesFirst() {
        String project = "crowd-" + UUID.randomUUID();
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);
        UUID lesson = MemoryPagesTest.recordSameSubject(embeddings, project, cookie);

        String found = MemoryPagesTest.page(cookie, "/ui/projects/" + project + "/memories?q="
                + MemoryPagesTest.encode(SameSubjectMemories.QUESTION_NEAR_THE_CROWD));

        assertThat(MemoryPagesTest.ids(found)).first().isEqualTo(lesson);
    }
}
