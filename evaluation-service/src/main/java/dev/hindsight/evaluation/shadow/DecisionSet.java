package dev.hindsight.evaluation.shadow;

import dev.hindsight.platform.tenant.TenantId;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A recorded decision set ({@code DECISION_SET_CREATED}, design.md § Decision sets): the active decision and its
 * shadows on one message.
 *
 * <p>Shadow versions are required and distinct because they key {@code shadow_scores}; two shadows with one version
 * would silently overwrite each other's score.
 */
public record DecisionSet(TenantId tenant, String decisionSetId, String messageId, String sessionId,
                          String activeVersion, Decision active, List<Decision> shadows, Instant decidedAt) {

    public DecisionSet {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(decisionSetId, "decisionSetId");
        Objects.requireNonNull(active, "active");
        Objects.requireNonNull(decidedAt, "decidedAt");
        shadows = shadows == null ? List.of() : List.copyOf(shadows);
        Set<String> versions = new HashSet<>();
        for (Decision shadow : shadows) {
            if (shadow.version() == null) {
                throw new IllegalArgumentException("decision set " + decisionSetId + ": a shadow decision has no version");
            }
            if (!versions.add(shadow.version())) {
                throw new IllegalArgumentException(
                        "decision set " + decisionSetId + ": shadow version " + shadow.version() + " appears twice");
            }
        }
    }
}
