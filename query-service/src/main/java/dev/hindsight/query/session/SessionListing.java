package dev.hindsight.query.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * {@code GET /v1/sessions}: filters, newest first, and an opaque keyset cursor ({@code listed_at}, {@code session_id})
 * so that a page never skips or repeats a session while new ones arrive.
 */
final class SessionListing {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;

    /** One session in a listing (no messages). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Summary(String sessionId, String kind, OffsetDateTime startedAt, OffsetDateTime completedAt,
            String outcome, String jobId, LocalDate date, String model, int totalMessages, String sessionSummary,
            String qaStatus) {
    }

    /** A page: the sessions, and the cursor of the next page when there is one. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Page(List<Summary> sessions, int count, String nextCursor) {
    }

    /** Where the previous page ended. */
    public record Cursor(Instant listedAt, String sessionId) {

        public String encode() {
            String raw = listedAt.toString() + '|' + sessionId;
            return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }

        static Cursor decode(String text) {
            try {
                String raw = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
                int bar = raw.indexOf('|');
                return new Cursor(Instant.parse(raw.substring(0, bar)), raw.substring(bar + 1));
            } catch (IllegalArgumentException | DateTimeParseException | StringIndexOutOfBoundsException bad) {
                throw ProblemException.badRequest("Invalid cursor", List.of(new FieldError("cursor",
                        "not a cursor this API returned; start again without it")));
            }
        }
    }

    /**
     * The filters as given (query parameters or the console's form): kind, model, outcome, QA status, a label as
     * {@code key=value}, and a range on the session's start.
     */
    public record Filters(String kind, String model, String outcome, String qaStatus, String label, String from,
            String to) {

        public static final Filters NONE = new Filters(null, null, null, null, null, null, null);
    }

    /** The validated query. */
    public record Query(String kind, String model, String outcome, String qaStatus, String labelKey,
            String labelValue, OffsetDateTime from, OffsetDateTime to, Cursor after, int limit) {

        /** The statement and its parameters, with only the filters present (so each gets its index). */
        String sql(List<Object> params, TenantId tenant) {
            StringBuilder sql = filtered(params, tenant);
            if (after != null) {
                params.add(after.listedAt().atOffset(ZoneOffset.UTC));
                params.add(after.sessionId());
                sql.append(" AND (listed_at, session_id) < ($").append(params.size() - 1).append(", $")
                        .append(params.size()).append(')');
            }
            params.add(limit + 1);
            sql.append(" ORDER BY listed_at DESC, session_id DESC LIMIT $").append(params.size());
            return sql.toString();
        }

        /** The sessions among {@code ids} that these filters let through, newest first (a live list's new rows). */
        String sqlAmong(List<Object> params, TenantId tenant, List<String> ids) {
            StringBuilder sql = filtered(params, tenant);
            params.add(ids.toArray(new String[0]));
            sql.append(" AND session_id = ANY($").append(params.size())
                    .append(") ORDER BY listed_at DESC, session_id DESC");
            return sql.toString();
        }

        private StringBuilder filtered(List<Object> params, TenantId tenant) {
            StringBuilder sql = new StringBuilder("""
                    SELECT session_id, kind, started_at, completed_at, outcome, job_id, trading_date, model,
                           total_messages, session_summary, qa_status, listed_at
                    FROM {rm}.session WHERE tenant_id = $1""");
            params.add(tenant.value());
            if (kind != null) {
                params.add(kind);
                sql.append(" AND kind = $").append(params.size());
            }
            if (model != null) {
                params.add(model);
                sql.append(" AND model = $").append(params.size());
            }
            if (outcome != null) {
                params.add(outcome);
                sql.append(" AND outcome = $").append(params.size());
            }
            if (qaStatus != null) {
                params.add(qaStatus);
                sql.append(" AND qa_status = $").append(params.size());
            }
            if (labelKey != null) {
                params.add(new io.vertx.core.json.JsonObject().put(labelKey, labelValue));
                sql.append(" AND labels @> $").append(params.size());
            }
            if (from != null) {
                params.add(from);
                sql.append(" AND listed_at >= $").append(params.size());
            }
            if (to != null) {
                params.add(to);
                sql.append(" AND listed_at < $").append(params.size());
            }
            return sql;
        }
    }

    private SessionListing() {
    }

    /** Validates every parameter, reporting all that are wrong at once. */
    public static Query query(Filters filters, String cursor, String limit) {
        String kind = filters.kind();
        String model = filters.model();
        String outcome = filters.outcome();
        List<FieldError> errors = new ArrayList<>();
        if (kind != null && !List.of("trading", "chat", "debug").contains(kind)) {
            errors.add(new FieldError("kind", "must be one of trading, chat, debug"));
        }
        if (outcome != null && !List.of("success", "failure", "unknown").contains(outcome)) {
            errors.add(new FieldError("outcome", "must be one of success, failure, unknown"));
        }
        if (model != null && (model.isBlank() || model.length() > 200)) {
            errors.add(new FieldError("model", "must be 1 to 200 characters"));
        }
        if (filters.qaStatus() != null && !List.of("pending", "completed", "failed").contains(filters.qaStatus())) {
            errors.add(new FieldError("qa_status", "must be one of pending, completed, failed"));
        }
        String labelKey = null;
        String labelValue = null;
        if (filters.label() != null) {
            int equals = filters.label().indexOf('=');
            if (equals < 1 || filters.label().length() > 1200) {
                errors.add(new FieldError("label", "must be key=value (the key not empty), at most 1200 characters"));
            } else {
                labelKey = filters.label().substring(0, equals);
                labelValue = filters.label().substring(equals + 1);
            }
        }
        OffsetDateTime fromTime = time("from", filters.from(), errors);
        OffsetDateTime toTime = time("to", filters.to(), errors);
        int size = DEFAULT_LIMIT;
        if (limit != null) {
            try {
                size = Integer.parseInt(limit);
                if (size < 1 || size > MAX_LIMIT) {
                    errors.add(new FieldError("limit", "must be between 1 and " + MAX_LIMIT));
                }
            } catch (NumberFormatException notANumber) {
                errors.add(new FieldError("limit", "must be an integer between 1 and " + MAX_LIMIT));
            }
        }
        Cursor after = null;
        if (cursor != null) {
            try {
                after = Cursor.decode(cursor);
            } catch (ProblemException bad) {
                errors.add(new FieldError("cursor", "not a cursor this API returned; start again without it"));
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("Invalid query", errors);
        }
        return new Query(kind, model, outcome, filters.qaStatus(), labelKey, labelValue, fromTime, toTime, after,
                size);
    }

    /** A date (YYYY-MM-DD, midnight UTC) or an ISO-8601 instant with offset. */
    static OffsetDateTime time(String field, String value, List<FieldError> errors) {
        if (value == null) {
            return null;
        }
        try {
            if (value.length() == 10) {
                return LocalDate.parse(value).atStartOfDay().atOffset(ZoneOffset.UTC);
            }
            return OffsetDateTime.parse(value);
        } catch (DateTimeParseException bad) {
            errors.add(new FieldError(field, "must be a date (YYYY-MM-DD) or an ISO-8601 timestamp with offset"));
            return null;
        }
    }
}
