package dev.hindsight.evaluation.audit;

import dev.hindsight.evaluation.config.EvaluationConfig;
import dev.hindsight.evaluation.outbox.Outbox;
import dev.hindsight.evaluation.outbox.OutboxRelay;
import dev.hindsight.evaluation.shadow.AlignmentWeights;
import dev.hindsight.evaluation.shadow.DecisionComparator;
import dev.hindsight.evaluation.shadow.DecisionComparison;
import dev.hindsight.evaluation.shadow.DecisionSet;
import dev.hindsight.evaluation.shadow.EvaluationWindow;
import dev.hindsight.evaluation.shadow.MiniLmSimilarity;
import dev.hindsight.evaluation.shadow.ReasoningSimilarity;
import dev.hindsight.evaluation.shadow.ShadowEvaluation;
import dev.hindsight.evaluation.shadow.ShadowScoreCalculator;
import dev.hindsight.evaluation.shadow.Signal;
import dev.hindsight.evaluation.shadow.SignalType;
import dev.hindsight.evaluation.shadow.Trigger;
import dev.hindsight.evaluation.shadow.WindowState;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.platform.work.BackgroundWork;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Scores decision sets when they are due (on a terminal signal, or when the window closes on event
 * time; a later signal yields a new revision) and publishes SHADOW_EVALUATION_COMPLETED, plus one DECISION_COMPARISON
 * per shadow with the first revision. The due sets are locked, scored and marked in one transaction with their
 * outbox rows, so a restart at any instant neither loses nor repeats a revision: what is due depends only on the
 * stored state and the clock.
 */
@Singleton
class ShadowEvaluator extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(ShadowEvaluator.class);

    // The due sets stay locked while they are scored, and a first revision embeds each shadow's reasoning, which
    // takes time per pair: a round of at most 50 sets keeps those locks short.
    private static final int ROUND = 50;

    private static final String DUE = """
            SELECT tenant_id, decision_set_id, message_id, decision_set::text AS decision_set, decided_at, received_at,
                   signal_count, has_terminal, published_revision, signals_at_last_revision
            FROM decision_set_state /* every tenant: the sets due */
            WHERE (published_revision = 0 AND (has_terminal OR (decided_at + make_interval(secs => $1) <= now()
                                                               AND received_at + make_interval(secs => $2) <= now())))
               OR (published_revision > 0 AND signal_count > signals_at_last_revision)
            ORDER BY decided_at LIMIT $3 FOR UPDATE SKIP LOCKED""";
    private static final String SIGNALS = """
            SELECT tenant_id, event_id, message_id, signal_type, occurred_at, requested_action, user_action, thumbs_up,
                   violation_type
            FROM behavior_signal WHERE tenant_id = ANY($1) AND message_id = ANY($2)""";
    private static final String MARK = """
            UPDATE decision_set_state SET published_revision = $3, signals_at_last_revision = $4
            WHERE tenant_id = $1 AND decision_set_id = $2""";

    private final Pool pool;
    private final Outbox outbox;
    private final OutboxRelay relay;
    private final EvaluationConfig.Shadow config;
    private final EvaluationWindow window;
    private final ShadowScoreCalculator calculator;
    private final DecisionComparator comparator;
    private final String similarityModel;
    private final Clock clock = Clock.systemUTC();

    public ShadowEvaluator(Pool pool, Vertx vertx, Outbox outbox, OutboxRelay relay, EvaluationConfig config,
            ReasoningSimilarity similarity) {
        super(vertx, config.shadow().checkInterval(), "Evaluating decision sets", false);
        this.pool = pool;
        this.outbox = outbox;
        this.relay = relay;
        this.config = config.shadow();
        this.window = new EvaluationWindow(this.config.window(), this.config.settle());
        AlignmentWeights weights = AlignmentWeights.defaults().withPrior(this.config.priorWeight());
        this.calculator = new ShadowScoreCalculator(weights);
        this.comparator = new DecisionComparator(similarity);
        this.similarityModel = similarity instanceof MiniLmSimilarity m ? m.modelId() : similarity.getClass().getSimpleName();
    }

    @Override
    protected Uni<Boolean> oneRound() {
        return round().invoke(evaluated -> {
            if (evaluated > 0) {
                relay.wake();
            }
        }).map(evaluated -> evaluated >= ROUND);
    }

    /** One round: the due sets, scored, published through the outbox and marked; the number evaluated. */
    Uni<Integer> round() {
        Instant now = clock.instant();
        return pool.withTransaction(tx -> tx.preparedQuery(DUE)
                .execute(Tuple.of(config.window().toMillis() / 1000.0, config.settle().toMillis() / 1000.0, ROUND))
                .chain(rows -> {
                    List<Due> due = new ArrayList<>();
                    for (Row row : rows) {
                        WindowState state = new WindowState(
                                row.getOffsetDateTime("decided_at").toInstant(),
                                row.getOffsetDateTime("received_at").toInstant(),
                                row.getInteger("published_revision"), row.getInteger("signals_at_last_revision"),
                                row.getInteger("signal_count"), row.getBoolean("has_terminal"));
                        Optional<Trigger> trigger = window.due(state, now);
                        trigger.ifPresent(t -> due.add(new Due(
                                ShadowMapping.fromJson(new JsonObject(row.getString("decision_set"))),
                                row.getInteger("published_revision") + 1, t)));
                    }
                    return due.isEmpty() ? Uni.createFrom().item(0) : evaluate(tx, due);
                }));
    }

    private Uni<Integer> evaluate(SqlClient tx, List<Due> due) {
        String[] tenants = due.stream().map(d -> d.set().tenant().value()).distinct().toArray(String[]::new);
        String[] messages = due.stream().map(d -> d.set().messageId()).distinct().toArray(String[]::new);
        return tx.preparedQuery(SIGNALS).execute(Tuple.of(tenants, messages))
                .map(rows -> {
                    Map<MessageKey, List<Signal>> byMessage = new HashMap<>();
                    for (Row row : rows) {
                        MessageKey key = new MessageKey(TenantId.of(row.getString("tenant_id")),
                                row.getString("message_id"));
                        byMessage.computeIfAbsent(key, k -> new ArrayList<>()).add(signal(row));
                    }
                    return byMessage;
                })
                // Scoring is cheap; comparing reasoning runs a sentence-embedding model: off the event loop.
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(byMessage -> {
                    List<Outbox.Event> events = new ArrayList<>();
                    List<Tuple> marks = new ArrayList<>();
                    for (Due d : due) {
                        List<Signal> signals = byMessage.getOrDefault(
                                new MessageKey(d.set().tenant(), d.set().messageId()), List.of());
                        long started = System.nanoTime();
                        ShadowEvaluation evaluation = calculator.evaluate(d.set(), signals, d.revision(), d.trigger());
                        List<DecisionComparison> comparisons = d.revision() == 1 ? compare(d.set()) : List.of();
                        double tookMs = (System.nanoTime() - started) / 1_000_000.0;
                        events.add(EvaluationEvents.evaluated(d.set(), evaluation, tookMs, clock));
                        for (DecisionComparison comparison : comparisons) {
                            events.add(EvaluationEvents.compared(d.set(), comparison, similarityModel,
                                    evaluation.evaluatedAt(), clock));
                        }
                        marks.add(Tuple.of(d.set().tenant().value(), d.set().decisionSetId(), d.revision(),
                                signals.size()));
                    }
                    return new Decided(events, marks);
                })
                .chain(decided -> outbox.add(tx, decided.events())
                        .chain(() -> tx.preparedQuery(MARK).executeBatch(decided.marks()))
                        .map(ignored -> decided.marks().size()));
    }

    /**
     * The first revision's comparisons, or none if comparing fails: the score does not depend on them, and a set that
     * fails the same way every time must not hold back every set behind it in the round.
     */
    private List<DecisionComparison> compare(DecisionSet set) {
        try {
            return comparator.compare(set);
        } catch (RuntimeException e) {
            // The exception's class only: a message may quote the reasoning, which is what people wrote.
            LOG.warnf("Comparing the decisions of set %s failed (%s); it is scored without comparisons",
                    set.decisionSetId(), e.getClass().getName());
            return List.of();
        }
    }

    private static Signal signal(Row row) {
        return new Signal(row.getUUID("event_id").toString(),
                SignalType.valueOf(row.getString("signal_type").toUpperCase(java.util.Locale.ROOT)),
                row.getOffsetDateTime("occurred_at").toInstant(), row.getString("requested_action"),
                row.getString("user_action"), row.getBoolean("thumbs_up"), row.getString("violation_type"));
    }

    private record Due(DecisionSet set, int revision, Trigger trigger) {
    }

    /** A tenant's message, whose signals a decision set on it is scored with. */
    private record MessageKey(TenantId tenant, String messageId) {
    }

    private record Decided(List<Outbox.Event> events, List<Tuple> marks) {
    }
}
