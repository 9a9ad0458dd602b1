package dev.hindsight.query.audit;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The classifier versions' leaderboard as its page shows it: each version's mean Reality Alignment Score with its 95%
 * interval drawn as an error bar on one scale shared by every row, and for shadows their record against the active
 * decision and the promotion recommendation with the evidence it rests on.
 */
record VersionsPage(List<Version> versions, long minEvaluations, String from, String to, String scaleLow,
        String scaleHigh) {

    static final int BAR_WIDTH = 240;
    private static final int PAD = 6;

    /** One version in one role; {@code x*} place its bar (mean and interval) on the shared scale. */
    public record Version(String version, String role, long evaluations, String mean, String low, String high,
            Long wins, Long ties, Long losses, String difference, String differenceLow, String differenceHigh,
            String recommendation, String xLow, String xMean, String xHigh) {

        public boolean shadow() {
            return "shadow".equals(role);
        }
    }

    static VersionsPage of(JsonObject answer, String from, String to) {
        JsonArray rows = answer.getJsonArray("versions", new JsonArray());
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (Object item : rows) {
            JsonObject v = (JsonObject) item;
            low = Math.min(low, v.getDouble("mean_score"));
            high = Math.max(high, v.getDouble("mean_score"));
            JsonArray ci = v.getJsonArray("score_ci95");
            if (ci != null) {
                low = Math.min(low, ci.getDouble(0));
                high = Math.max(high, ci.getDouble(1));
            }
        }
        if (high - low < 1e-9) {
            low -= 0.5;
            high += 0.5;
        }
        List<Version> versions = new ArrayList<>();
        for (Object item : rows) {
            JsonObject v = (JsonObject) item;
            JsonArray ci = v.getJsonArray("score_ci95");
            JsonArray diff = v.getJsonArray("difference_ci95");
            double mean = v.getDouble("mean_score");
            versions.add(new Version(v.getString("version"), v.getString("role"), v.getLong("evaluations"),
                    plain(mean), ci == null ? null : plain(ci.getDouble(0)), ci == null ? null : plain(ci.getDouble(1)),
                    v.getLong("wins"), v.getLong("ties"), v.getLong("losses"),
                    v.getValue("mean_difference") == null ? null : plain(v.getDouble("mean_difference")),
                    diff == null ? null : plain(diff.getDouble(0)), diff == null ? null : plain(diff.getDouble(1)),
                    v.getString("recommendation"),
                    x(ci == null ? mean : ci.getDouble(0), low, high), x(mean, low, high),
                    x(ci == null ? mean : ci.getDouble(1), low, high)));
        }
        return new VersionsPage(versions, answer.getLong("min_evaluations", 0L), from, to,
                rows.isEmpty() ? null : plain(low), rows.isEmpty() ? null : plain(high));
    }

    private static String x(double value, double low, double high) {
        return String.format(Locale.ROOT, "%.1f", PAD + (BAR_WIDTH - 2.0 * PAD) * (value - low) / (high - low));
    }

    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
