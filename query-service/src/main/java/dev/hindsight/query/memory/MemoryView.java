package dev.hindsight.query.memory;

import dev.hindsight.memorymodel.confidence.ConfidenceModel;
import dev.hindsight.memorymodel.confidence.MemoryOrigin;
import dev.hindsight.memorymodel.confidence.ProjectWeights;
import dev.hindsight.memorymodel.confidence.SignalCounts;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A memory as the read model holds it, with its project's learned weights: its confidence is computed on every read
 * by the same model memory-service uses, so both show the same number for the same events.
 */
record MemoryView(UUID id, String project, MemoryOrigin origin, String title, String description,
        String content, String outcome, List<String> tags, List<String> sourceSessionIds, String via,
        SignalCounts counts, ProjectWeights weights, Instant recordedAt, Instant updatedAt) {

    public double confidence() {
        return ConfidenceModel.confidence(origin, counts, weights);
    }
}
