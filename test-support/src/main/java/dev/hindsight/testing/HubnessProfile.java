package dev.hindsight.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * A service whose memory search orders candidates by relevance less half their hubness (design.md § Semantic search;
 * off by default), so that {@link SameSubjectMemories#QUESTION_NEAR_THE_CROWD} finds the lesson first. memory-service
 * and query-service's console read the same setting and are tested with this one profile.
 */
public class HubnessProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("hindsight.memory.search.hubness", "0.5");
    }
}
