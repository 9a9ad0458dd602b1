package dev.hindsight.query.audit;

import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.audit.LeaderboardStats.Interval;
import dev.hindsight.query.readmodel.Generations;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The leaderboard in one query: over the latest revision of each decision set's evaluation, per version and role,
 * the evaluations, the mean score and, for shadows, the paired difference against the active decision.
 */
@ApplicationScoped
class LeaderboardQuery {

    /** Scores closer than this are a tie (they are rounded to 4 decimals when computed). */
    static final double TIE = 1e-9;

    private static final String LEADERBOARD = """
            WITH latest AS (
                SELECT DISTINCT ON (decision_set_id) active_version, active_score, shadow_scores
                FROM {rm}.shadow_evaluation
                WHERE tenant_id = $1 AND occurred_at >= $2 AND occurred_at < $3
                ORDER BY decision_set_id, revision DESC),
            scored AS (
                SELECT active_version AS version, 'active' AS role, active_score AS score, 0::float8 AS diff
                FROM latest
                UNION ALL
                SELECT s.key, 'shadow', s.value::float8, s.value::float8 - l.active_score
                FROM latest l, jsonb_each_text(l.shadow_scores) s)
            SELECT version, role, count(*) AS n, avg(score) AS mean, stddev_samp(score) AS sd,
                   avg(diff) AS mean_diff, stddev_samp(diff) AS sd_diff,
                   count(*) FILTER (WHERE diff > $4) AS wins,
                   count(*) FILTER (WHERE abs(diff) <= $4) AS ties,
                   count(*) FILTER (WHERE diff < -$4) AS losses
            FROM scored GROUP BY version, role ORDER BY avg(score) DESC, version, role""";

    private final Pool pool;
    private final Generations generations;
    private final long minEvaluations;

    public LeaderboardQuery(Pool pool, Generations generations,
            @ConfigProperty(name = "hindsight.query.leaderboard.min-evaluations", defaultValue = "30")
            long minEvaluations) {
        this.pool = pool;
        this.generations = generations;
        this.minEvaluations = minEvaluations;
    }

    /** Every version's standing for {@code tenantId} between {@code from} and {@code to} (dates, optional). */
    public Uni<JsonObject> leaderboard(TenantId tenantId, String from, String to) {
        List<FieldError> errors = new ArrayList<>();
        OffsetDateTime since = day(from, "from", errors, OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
        OffsetDateTime until = day(to, "to", errors, OffsetDateTime.of(9999, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("Invalid query", errors);
        }
        return generations.current()
                .chain(rm -> pool.preparedQuery(rm.sql(LEADERBOARD)).execute(Tuple.of(tenantId.value(), since, until, TIE)))
                .map(rows -> {
                    JsonArray versions = new JsonArray();
                    for (Row row : rows) {
                        versions.add(entry(row));
                    }
                    return new JsonObject().put("versions", versions).put("min_evaluations", minEvaluations);
                });
    }

    private JsonObject entry(Row row) {
        long n = row.getLong("n");
        Interval score = LeaderboardStats.interval(n, row.getDouble("mean"), nanIfNull(row.getDouble("sd")));
        JsonObject entry = new JsonObject()
                .put("version", row.getString("version"))
                .put("role", row.getString("role"))
                .put("evaluations", n)
                .put("mean_score", round(score.mean()))
                .put("score_ci95", ci(score));
        if ("shadow".equals(row.getString("role"))) {
            Interval difference = LeaderboardStats.interval(n, row.getDouble("mean_diff"),
                    nanIfNull(row.getDouble("sd_diff")));
            entry.put("wins", row.getLong("wins"))
                    .put("ties", row.getLong("ties"))
                    .put("losses", row.getLong("losses"))
                    .put("mean_difference", round(difference.mean()))
                    .put("difference_ci95", ci(difference))
                    .put("recommendation", LeaderboardStats.recommend(n, difference, minEvaluations).wireName());
        }
        return entry;
    }

    private static JsonArray ci(Interval interval) {
        return interval.low() == null ? null : new JsonArray().add(round(interval.low())).add(round(interval.high()));
    }

    private static double nanIfNull(Double value) {
        return value == null ? Double.NaN : value;
    }

    private static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }

    private static OffsetDateTime day(String value, String field, List<FieldError> errors, OffsetDateTime otherwise) {
        if (value == null) {
            return otherwise;
        }
        try {
            return LocalDate.parse(value).atStartOfDay().atOffset(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            errors.add(new FieldError(field, "must be a date YYYY-MM-DD"));
            return otherwise;
        }
    }
}
