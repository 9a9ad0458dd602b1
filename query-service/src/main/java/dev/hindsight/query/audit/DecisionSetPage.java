package dev.hindsight.query.audit;

import dev.hindsight.query.console.ConsolePaths;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A decision set as its page shows it, from the API's answer: the question, the active decision and each shadow's side
 * by side, the behaviour signals on its message in time order, every evaluation revision with each version's Reality
 * Alignment Score, and each shadow's comparison with the active decision.
 */
record DecisionSetPage(String id, String href, String messageId, String sessionId, String sessionHref,
        String question, String timestamp, List<Decision> decisions, List<Signal> signals, List<String> versions,
        List<Revision> revisions, List<Comparison> comparisons, String context) {

    /** One classifier's decision; the active one first. */
    public record Decision(String version, boolean active, String infoNeed, String action, String confidence,
            String reasoning) {
    }

    public record Signal(String type, String timestamp, String data) {
    }

    /** One revision of the set's evaluation: a score per version, in {@link #versions} order. */
    public record Revision(int revision, String trigger, String timestamp, int signalsUsed, List<String> scores) {
    }

    public record Comparison(String shadowVersion, boolean diverged, String activeAction, String shadowAction,
            String confidenceDelta, String similarity, String severity) {
    }

    /** The decision sets list. */
    public record ListPage(List<Row> rows, String sessionId, String hasShadow) {
    }

    public record Row(String id, String href, String sessionId, String question, String activeVersion,
            String shadowVersions, String timestamp) {
    }

    static ListPage list(JsonObject answer, String sessionId, String hasShadow) {
        List<Row> rows = new ArrayList<>();
        for (Object item : answer.getJsonArray("decision_sets", new JsonArray())) {
            JsonObject p = ((JsonObject) item).getJsonObject("payload");
            JsonArray shadows = p.getJsonArray("shadow_versions", new JsonArray());
            rows.add(new Row(p.getString("decision_set_id"), href(p.getString("decision_set_id")),
                    p.getString("session_id"), p.getString("question_text"), p.getString("active_version"),
                    String.join(", ", shadows.stream().map(String::valueOf).toList()), p.getString("timestamp")));
        }
        return new ListPage(rows, sessionId, hasShadow);
    }

    static DecisionSetPage of(JsonObject answer) {
        JsonObject p = answer.getJsonObject("decision_set").getJsonObject("payload");
        List<Decision> decisions = new ArrayList<>();
        List<String> versions = new ArrayList<>();
        String active = p.getString("active_version");
        versions.add(active);
        decisions.add(decision(active, true, p.getJsonObject("active_decision")));
        JsonArray shadowVersions = p.getJsonArray("shadow_versions", new JsonArray());
        JsonArray shadowDecisions = p.getJsonArray("shadow_decisions", new JsonArray());
        for (int i = 0; i < shadowVersions.size(); i++) {
            String version = String.valueOf(shadowVersions.getValue(i));
            versions.add(version);
            decisions.add(decision(version, false, i < shadowDecisions.size() ? shadowDecisions.getJsonObject(i)
                    : null));
        }
        List<Signal> signals = new ArrayList<>();
        for (Object item : answer.getJsonArray("signals", new JsonArray())) {
            JsonObject s = ((JsonObject) item).getJsonObject("payload");
            JsonObject data = s.getJsonObject("signal_data");
            signals.add(new Signal(s.getString("signal_type"), s.getString("timestamp"),
                    data == null ? null : data.encodePrettily()));
        }
        List<Revision> revisions = new ArrayList<>();
        for (Object item : answer.getJsonArray("evaluations", new JsonArray())) {
            JsonObject e = ((JsonObject) item).getJsonObject("payload");
            JsonObject shadowScores = e.getJsonObject("shadow_scores", new JsonObject());
            List<String> scores = new ArrayList<>();
            scores.add(number(e.getValue("active_score")));
            for (String version : versions.subList(1, versions.size())) {
                scores.add(number(shadowScores.getValue(version)));
            }
            // signals_used lists the signals the revision weighed.
            Object used = e.getValue("signals_used");
            revisions.add(new Revision(e.getInteger("revision", 0), e.getString("trigger"), e.getString("timestamp"),
                    used instanceof JsonArray list ? list.size() : used instanceof Number n ? n.intValue() : 0,
                    scores));
        }
        List<Comparison> comparisons = new ArrayList<>();
        for (Object item : answer.getJsonArray("comparisons", new JsonArray())) {
            JsonObject c = ((JsonObject) item).getJsonObject("payload");
            JsonObject r = c.getJsonObject("comparison_result", new JsonObject());
            comparisons.add(new Comparison(c.getString("shadow_version"), r.getBoolean("decision_diverged", false),
                    r.getString("active_action"), r.getString("shadow_action"), number(r.getValue("confidence_delta")),
                    number(r.getValue("reasoning_similarity")), r.getString("divergence_severity")));
        }
        JsonObject context = p.getJsonObject("context_snapshot");
        String sessionId = p.getString("session_id");
        return new DecisionSetPage(p.getString("decision_set_id"), href(p.getString("decision_set_id")),
                p.getString("message_id"), sessionId, sessionId == null ? null : ConsolePaths.session(sessionId),
                p.getString("question_text"), p.getString("timestamp"), decisions, signals, versions, revisions,
                comparisons, context == null ? null : context.encodePrettily());
    }

    static String href(String id) {
        return ConsolePaths.UI + "/decision-sets/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static Decision decision(String version, boolean active, JsonObject d) {
        return d == null ? new Decision(version, active, null, null, null, null)
                : new Decision(version, active, d.getString("info_need_type"), d.getString("decision_action"),
                        d.getString("confidence_level"), d.getString("reasoning"));
    }

    private static String number(Object value) {
        return value == null ? null : new BigDecimal(value.toString()).stripTrailingZeros().toPlainString();
    }
}
