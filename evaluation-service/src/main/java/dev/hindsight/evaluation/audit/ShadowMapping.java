package dev.hindsight.evaluation.audit;

import dev.hindsight.evaluation.shadow.Decision;
import dev.hindsight.evaluation.shadow.DecisionSet;
import dev.hindsight.evaluation.shadow.Signal;
import dev.hindsight.evaluation.shadow.SignalType;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.decisions.DecisionSetRecorded;
import dev.hindsight.events.signals.BehaviorSignalRecorded;
import dev.hindsight.events.signals.DelayedCommRequest;
import dev.hindsight.events.signals.ExplicitFeedback;
import dev.hindsight.events.signals.FeedbackRating;
import dev.hindsight.events.signals.PhaseViolation;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.events.signals.UserFollowupOverride;
import dev.hindsight.platform.tenant.TenantId;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Between the decision-set and signal events, the scoring domain, and the JSON evaluation-service keeps a decision set
 * in.
 */
final class ShadowMapping {

    private ShadowMapping() {
    }

    public static DecisionSet decisionSet(DecisionEvent event) {
        DecisionSetRecorded set = (DecisionSetRecorded) event.getPayload();
        List<Decision> shadows = new ArrayList<>(set.getShadowDecisions().size());
        for (int i = 0; i < set.getShadowDecisions().size(); i++) {
            var shadow = set.getShadowDecisions().get(i);
            // A shadow's version: its own, else the matching shadow_versions entry, else its position.
            String version = shadow.getVersion() != null ? shadow.getVersion()
                    : i < set.getShadowVersions().size() ? set.getShadowVersions().get(i) : "shadow-" + (i + 1);
            shadows.add(decision(shadow, version));
        }
        return new DecisionSet(TenantId.of(event.getHeader().getTenantId()), set.getDecisionSetId(), set.getMessageId(),
                set.getSessionId(), set.getActiveVersion(), decision(set.getActiveDecision(), set.getActiveVersion()),
                shadows, set.getTimestamp());
    }

    private static Decision decision(dev.hindsight.events.decisions.Decision d, String version) {
        return new Decision(version, d.getInfoNeedType(), d.getDecisionAction(), d.getConfidenceLevel(),
                d.getReasoning());
    }

    public static Signal signal(SignalEvent event) {
        BehaviorSignalRecorded s = (BehaviorSignalRecorded) event.getPayload();
        String requested = null;
        String userAction = null;
        Boolean thumbsUp = null;
        String violation = null;
        Object data = s.getSignalData();
        if (data instanceof UserFollowupOverride o) {
            requested = o.getRequestedAction();
            userAction = o.getUserAction();
        } else if (data instanceof DelayedCommRequest d) {
            userAction = d.getUserAction();
        } else if (data instanceof ExplicitFeedback f) {
            thumbsUp = f.getRating() == FeedbackRating.UP;
        } else if (data instanceof PhaseViolation p) {
            violation = p.getViolationType();
        }
        return new Signal(event.getHeader().getEventId().toString(), SignalType.valueOf(s.getSignalType().name()),
                s.getTimestamp(), requested, userAction, thumbsUp, violation);
    }

    public static JsonObject toJson(DecisionSet set) {
        JsonArray shadows = new JsonArray();
        set.shadows().forEach(d -> shadows.add(toJson(d)));
        return new JsonObject()
                .put("tenant", set.tenant().value())
                .put("decision_set_id", set.decisionSetId())
                .put("message_id", set.messageId())
                .put("session_id", set.sessionId())
                .put("active_version", set.activeVersion())
                .put("active", toJson(set.active()))
                .put("shadows", shadows)
                .put("decided_at", set.decidedAt().toString());
    }

    public static DecisionSet fromJson(JsonObject json) {
        List<Decision> shadows = new ArrayList<>();
        json.getJsonArray("shadows").forEach(d -> shadows.add(decision((JsonObject) d)));
        return new DecisionSet(TenantId.of(json.getString("tenant")), json.getString("decision_set_id"),
                json.getString("message_id"), json.getString("session_id"), json.getString("active_version"),
                decision(json.getJsonObject("active")), shadows, Instant.parse(json.getString("decided_at")));
    }

    private static JsonObject toJson(Decision d) {
        return new JsonObject().put("version", d.version()).put("info_need_type", d.infoNeedType())
                .put("action", d.action()).put("confidence_level", d.confidenceLevel())
                .put("reasoning", d.reasoning());
    }

    private static Decision decision(JsonObject json) {
        return new Decision(json.getString("version"), json.getString("info_need_type"), json.getString("action"),
                json.getString("confidence_level"), json.getString("reasoning"));
    }
}
