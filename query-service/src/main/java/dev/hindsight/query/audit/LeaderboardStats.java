package dev.hindsight.query.audit;

/**
 * The statistics of the version leaderboard: a mean with its 95% Student-t interval, and the promotion rule. A shadow
 * version is recommended for promotion only when its paired difference against the active decision on the same
 * messages is significantly positive (the whole 95% interval above zero) over at least the configured number of
 * evaluations; fewer evaluations is never a recommendation, whatever the mean.
 */
public final class LeaderboardStats {

    private static final double Z_975 = 1.959963984540054;

    private LeaderboardStats() {
    }

    /** A mean and its two-sided 95% confidence interval; the bounds are null with fewer than two observations. */
    public record Interval(double mean, Double low, Double high) {
    }

    /** What the leaderboard says about a shadow version. */
    public enum Recommendation {
        /** Significantly better than the active decision, over enough evaluations. */
        PROMOTE,
        /** Significantly worse. */
        DO_NOT_PROMOTE,
        /** Enough evaluations, no significant difference. */
        INCONCLUSIVE,
        /** Too few evaluations to say anything. */
        KEEP_SHADOWING;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The 95% interval of a mean from {@code n} observations with sample standard deviation {@code sd}. */
    public static Interval interval(long n, double mean, double sd) {
        if (n < 2 || Double.isNaN(sd)) {
            return new Interval(mean, null, null);
        }
        double half = tQuantile975(n - 1) * sd / Math.sqrt(n);
        return new Interval(mean, mean - half, mean + half);
    }

    /** The rule above, from the paired differences (shadow score − active score) of one shadow version. */
    public static Recommendation recommend(long n, Interval pairedDifference, long minEvaluations) {
        if (n < minEvaluations || pairedDifference.low() == null) {
            return Recommendation.KEEP_SHADOWING;
        }
        if (pairedDifference.low() > 0) {
            return Recommendation.PROMOTE;
        }
        if (pairedDifference.high() < 0) {
            return Recommendation.DO_NOT_PROMOTE;
        }
        return Recommendation.INCONCLUSIVE;
    }

    /** The 0.975 quantiles of t for 1 to 10 degrees of freedom, where the expansion below is least accurate. */
    private static final double[] SMALL_DF = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622,
        2.2281};

    /**
     * The 0.975 quantile of Student's t with {@code df} degrees of freedom: from the table up to 10, otherwise the
     * Cornish-Fisher expansion around the normal quantile to the fourth power of 1/df (Abramowitz and Stegun 26.7.5;
     * error below 1e-5 beyond the table; without the fourth term it was 1.1e-4 at 11).
     */
    public static double tQuantile975(long df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be at least 1");
        }
        if (df <= SMALL_DF.length) {
            return SMALL_DF[(int) df - 1];
        }
        double z = Z_975;
        double d = df;
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        double z7 = z5 * z * z;
        double z9 = z7 * z * z;
        return z + (z3 + z) / (4 * d)
                + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d)
                + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * d * d * d)
                + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * d * d * d * d);
    }
}
