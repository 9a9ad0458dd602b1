package dev.hindsight.evaluation.insight;

import dev.hindsight.platform.tenant.TenantId;

/** A claimed unit of work: one summary or one judgement, with the attempt it is on (from 1). */
public record InsightJob(TenantId tenant, String sessionId, Kind kind, int messageIndex, int attempts) {

    /** What the job produces. */
    public enum Kind {
        MESSAGE_SUMMARY, SESSION_SUMMARY, TRACE_JUDGEMENT;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Kind of(String wireName) {
            return valueOf(wireName.toUpperCase(java.util.Locale.ROOT));
        }
    }
}
