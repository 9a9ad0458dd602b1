package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.judge.StepKind;
import dev.hindsight.evaluation.judge.Trace;
import dev.hindsight.evaluation.judge.TraceStep;
import dev.hindsight.evaluation.summary.SessionDigest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/** Reads what a job needs from evaluation-service's session state: a message, a session digest, a trace. */
@Singleton
class InsightInputs {

    private static final String MESSAGE = """
            SELECT content FROM session_message WHERE tenant_id = $1 AND session_id = $2 AND message_index = $3""";
    private static final String SESSION = """
            SELECT kind, title, task_description, outcome, summary_hint, final_code_diff
            FROM session_state WHERE tenant_id = $1 AND session_id = $2""";
    private static final String ASSISTANT_MESSAGES = """
            SELECT message_index, content, occurred_at, steps::text AS steps FROM session_message
            WHERE tenant_id = $1 AND session_id = $2 AND role = 'assistant' ORDER BY message_index""";
    private static final String ACTIONS = """
            SELECT description FROM session_action WHERE tenant_id = $1 AND session_id = $2
            ORDER BY occurred_at, action_id""";
    // Trace order: the producer's sequence where it gave one, then time, then arrival.
    private static final String STEPS = """
            SELECT step_id, sequence, occurred_at, kind, text, file_path, diff, command, exit_code, stdout, stderr
            FROM session_step WHERE tenant_id = $1 AND session_id = $2
            ORDER BY CASE WHEN sequence >= 0 THEN sequence END NULLS LAST, occurred_at, source_offset""";

    private final Pool pool;

    public InsightInputs(Pool pool) {
        this.pool = pool;
    }

    /** The message's content; fails when it is gone (cannot happen unless the state was deleted). */
    public Uni<String> message(InsightJob job) {
        return pool.preparedQuery(MESSAGE).execute(Tuple.of(job.tenant().value(), job.sessionId(), job.messageIndex()))
                .map(rows -> {
                    if (rows.size() == 0) {
                        throw new IllegalStateException("message " + job.messageIndex() + " of session "
                                + job.sessionId() + " is not recorded");
                    }
                    return rows.iterator().next().getString("content");
                });
    }

    /** Everything a session summary is written from. */
    public Uni<SessionDigest> digest(InsightJob job) {
        Tuple key = Tuple.of(job.tenant().value(), job.sessionId());
        return pool.preparedQuery(SESSION).execute(key).chain(sessions -> {
            Row session = sessions.size() == 0 ? null : sessions.iterator().next();
            String kind = session == null ? null : session.getString("kind");
            if ("debug".equals(kind)) {
                return pool.preparedQuery(STEPS).execute(key).map(rows -> {
                    List<String> thoughts = new ArrayList<>();
                    List<String> actions = new ArrayList<>();
                    for (Row row : rows) {
                        switch (row.getString("kind")) {
                            case "THOUGHT" -> thoughts.add(row.getString("text"));
                            case "EDIT" -> actions.add("edited " + row.getString("file_path"));
                            default -> actions.add("ran " + row.getString("command")
                                    + (row.getInteger("exit_code") == null ? "" : " (exit " + row.getInteger("exit_code") + ")"));
                        }
                    }
                    return new SessionDigest(kind, title(session), thoughts, actions, session.getString("outcome"),
                            session.getString("summary_hint"));
                });
            }
            return pool.preparedQuery(ASSISTANT_MESSAGES).execute(key).chain(messages -> {
                List<String> contents = new ArrayList<>();
                messages.forEach(row -> contents.add(row.getString("content")));
                return pool.preparedQuery(ACTIONS).execute(key).map(actionRows -> {
                    List<String> actions = new ArrayList<>();
                    actionRows.forEach(row -> actions.add(row.getString("description")));
                    return new SessionDigest(kind, session == null ? null : title(session), contents, actions,
                            session == null ? null : session.getString("outcome"),
                            session == null ? null : session.getString("summary_hint"));
                });
            });
        });
    }

    /**
     * The trace to judge: a debugging trace's events, or, for another session that asked to be judged, its assistant
     * messages' thinking steps in order (reasoning as thoughts, tool calls as commands).
     */
    public Uni<Trace> trace(InsightJob job) {
        Tuple key = Tuple.of(job.tenant().value(), job.sessionId());
        return pool.preparedQuery(SESSION).execute(key).chain(sessions -> {
            Row session = sessions.size() == 0 ? null : sessions.iterator().next();
            String task = session == null ? null : session.getString("task_description");
            String diff = session == null ? null : session.getString("final_code_diff");
            return pool.preparedQuery(STEPS).execute(key).chain(rows -> {
                if (rows.size() > 0) {
                    List<TraceStep> steps = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        steps.add(new TraceStep(row.getString("step_id"), row.getInteger("sequence"),
                                instant(row.getOffsetDateTime("occurred_at")), StepKind.valueOf(row.getString("kind")),
                                row.getString("text"), row.getString("file_path"), row.getString("diff"),
                                row.getString("command"), row.getInteger("exit_code"), row.getString("stdout"),
                                row.getString("stderr")));
                    }
                    return Uni.createFrom().item(new Trace(job.sessionId(), task, steps, diff));
                }
                return pool.preparedQuery(ASSISTANT_MESSAGES).execute(key)
                        .map(messages -> new Trace(job.sessionId(), task, fromThinkingSteps(messages), diff));
            });
        });
    }

    private static List<TraceStep> fromThinkingSteps(Iterable<Row> messages) {
        List<TraceStep> steps = new ArrayList<>();
        for (Row message : messages) {
            String json = message.getString("steps");
            if (json == null) {
                continue;
            }
            Instant at = instant(message.getOffsetDateTime("occurred_at"));
            int index = message.getInteger("message_index");
            for (Object item : new JsonArray(json)) {
                JsonObject step = (JsonObject) item;
                steps.add(new TraceStep("message-" + index + "-step-" + step.getInteger("order"), steps.size(), at,
                        StepKind.valueOf(step.getString("kind")), step.getString("text"), null, null,
                        step.getString("command"), step.getInteger("exit_code"), step.getString("stdout"),
                        step.getString("stderr")));
            }
        }
        return steps;
    }

    private static String title(Row session) {
        return session.getString("title") != null ? session.getString("title") : session.getString("task_description");
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }
}
