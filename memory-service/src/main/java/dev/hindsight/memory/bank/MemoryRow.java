package dev.hindsight.memory.bank;

import dev.hindsight.memorymodel.confidence.ConfidenceModel;
import dev.hindsight.memorymodel.confidence.MemoryOrigin;
import dev.hindsight.memorymodel.confidence.ProjectWeights;
import dev.hindsight.memorymodel.confidence.SignalCounts;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.platform.tenant.TenantId;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A memory as stored, with its signal totals and its project's learned weights: its confidence is computed from
 * those on every read, so it always reflects the weights as they are now.
 */
public record MemoryRow(UUID id, TenantId tenant, String project, MemoryOrigin origin, String title, String description,
        String content, String outcome, List<String> tags, List<String> sourceSessionIds, SignalCounts counts,
        ProjectWeights weights, Instant createdAt, Instant updatedAt) {

    /** What the search rule reads of a memory. */
    public static final SearchRule.Facts<MemoryRow> FACTS =
            SearchRule.Facts.of(MemoryRow::confidence, MemoryRow::origin, MemoryRow::outcome);

    public double confidence() {
        return ConfidenceModel.confidence(origin, counts, weights);
    }
}
