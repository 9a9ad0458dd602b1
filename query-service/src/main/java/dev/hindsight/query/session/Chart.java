package dev.hindsight.query.session;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;

/**
 * Cash and portfolio value over a trading day, one point per position in action order, drawn by the server as SVG:
 * the chart needs no script, so it shows without JavaScript and under a policy that allows none inline.
 */
record Chart(int width, int height, String cash, String value, String low, String high, int points) {

    static final int WIDTH = 640;
    static final int HEIGHT = 160;
    private static final int PAD = 8;

    /** Empty (no points) when no position carries a figure. */
    static Chart of(List<SessionPage.Position> positions) {
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (SessionPage.Position p : positions) {
            for (String figure : new String[] {p.cashAfter(), p.portfolioValue()}) {
                if (figure != null) {
                    double v = Double.parseDouble(figure);
                    low = Math.min(low, v);
                    high = Math.max(high, v);
                }
            }
        }
        if (low == Double.POSITIVE_INFINITY) {
            return new Chart(WIDTH, HEIGHT, "", "", null, null, 0);
        }
        if (high == low) {
            high = low + 1;
        }
        return new Chart(WIDTH, HEIGHT, line(positions, true, low, high), line(positions, false, low, high),
                plain(low), plain(high), positions.size());
    }

    private static String line(List<SessionPage.Position> positions, boolean cash, double low, double high) {
        StringBuilder points = new StringBuilder();
        int n = positions.size();
        for (int i = 0; i < n; i++) {
            String figure = cash ? positions.get(i).cashAfter() : positions.get(i).portfolioValue();
            if (figure == null) {
                continue;
            }
            double x = n == 1 ? WIDTH / 2.0 : PAD + (WIDTH - 2.0 * PAD) * i / (n - 1);
            double y = HEIGHT - PAD - (HEIGHT - 2.0 * PAD) * (Double.parseDouble(figure) - low) / (high - low);
            points.append(points.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
        }
        return points.toString();
    }

    private static String plain(double v) {
        return BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_UP).toPlainString();
    }

    public boolean drawn() {
        return points > 0;
    }
}
