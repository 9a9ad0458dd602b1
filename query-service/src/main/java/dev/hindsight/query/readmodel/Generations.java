package dev.hindsight.query.readmodel;

import dev.hindsight.platform.consumer.TransactionalBatches;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.jboss.logging.Logger;

/**
 * The generations of the read models (ADR 0004) and which one readers use. The pointer lives in
 * {@code read_model_generation}; every replica re-reads it every second, so a switch reaches all readers within about
 * a second, and a retired generation is dropped only after a grace period far longer than that.
 */
@ApplicationScoped
public class Generations {

    private static final Logger LOG = Logger.getLogger(Generations.class);

    /** The generations a live batch writes into, read inside its transaction. */
    private static final String WRITABLE = "SELECT generation FROM read_model_generation "
            + "WHERE state IN ('building', 'current') ORDER BY generation";
    private static final String EXISTING = "SELECT generation FROM read_model_generation "
            + "WHERE dropped_at IS NULL ORDER BY generation";
    private static final String CURRENT = "SELECT generation FROM read_model_generation WHERE state = 'current'";
    private static final String LIST = "SELECT * FROM read_model_generation WHERE dropped_at IS NULL "
            + "ORDER BY generation DESC";
    private static final String NEXT = """
            INSERT INTO read_model_generation (generation, state)
            SELECT g.next, $1 FROM (SELECT COALESCE(max(generation), 0) + 1 AS next, count(*) AS existing
                                    FROM read_model_generation) g
            WHERE $1 = 'building' OR g.existing = 0
            RETURNING generation""";
    private static final String TEMPLATE_TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = 'rm_template' "
            + "ORDER BY tablename";

    /** A generation as operators see it. */
    public record Status(int generation, String state, OffsetDateTime createdAt, long backfilledEvents,
            @Schema(description = "The offset each partition (topic-partition) is replayed up to")
            Map<String, Long> backfillUntil,
            @Schema(description = "The offset each partition has been replayed to") Map<String, Long> backfillPosition,
            OffsetDateTime backfillDoneAt, OffsetDateTime switchedAt, OffsetDateTime retiredAt) {

        static Status from(Row row) {
            return new Status(row.getInteger("generation"), row.getString("state"),
                    row.getOffsetDateTime("created_at"), row.getLong("backfill_events"),
                    offsets(row.getJsonObject("backfill_until")), offsets(row.getJsonObject("backfill_position")),
                    row.getOffsetDateTime("backfill_done_at"), row.getOffsetDateTime("switched_at"),
                    row.getOffsetDateTime("retired_at"));
        }

        private static Map<String, Long> offsets(JsonObject json) {
            if (json == null) {
                return null;
            }
            Map<String, Long> offsets = new TreeMap<>();
            json.forEach(entry -> offsets.put(entry.getKey(), ((Number) entry.getValue()).longValue()));
            return offsets;
        }
    }

    private final Pool pool;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private volatile ReadModel current;

    public Generations(Pool pool) {
        this.pool = pool;
    }

    /** At start-up (after Flyway): the first generation exists, and the pointer is refreshed every second. */
    void onStart(@Observes @Priority(Interceptor.Priority.APPLICATION) StartupEvent event, Vertx vertx) {
        create("current").await().atMost(Duration.ofSeconds(60))
                .ifPresent(first -> LOG.infof("Created read-model generation %d", first.generation()));
        refresh().await().atMost(Duration.ofSeconds(30));
        ready.complete(null);
        vertx.setPeriodic(1000, id -> refresh().subscribe().with(ignored -> { },
                e -> LOG.debugf("Refreshing the read-model pointer failed: %s", e)));
    }

    /** Completes once the first generation exists. */
    public Uni<Void> ready() {
        return Uni.createFrom().completionStage(ready);
    }

    /** The generation readers use. */
    public Uni<ReadModel> current() {
        ReadModel known = current;
        return known != null ? Uni.createFrom().item(known) : refresh();
    }

    public Uni<ReadModel> refresh() {
        return pool.query(CURRENT).execute().map(rows -> {
            if (rows.size() == 0) {
                throw new TransactionalBatches.NotReady("no current read-model generation yet");
            }
            ReadModel model = new ReadModel(rows.iterator().next().getInteger(0));
            if (current == null || current.generation() != model.generation()) {
                LOG.infof("Readers use read-model generation %d", model.generation());
            }
            current = model;
            return model;
        });
    }

    /**
     * Every generation that still exists, retired ones in their grace period included, on {@code tx}: what an
     * erasure deletes from, so that switching back to a retired generation brings nothing erased back.
     */
    public Uni<List<ReadModel>> existing(SqlClient tx) {
        return tx.query(EXISTING).execute().map(rows -> {
            List<ReadModel> models = new ArrayList<>(rows.size());
            for (Row row : rows) {
                models.add(new ReadModel(row.getInteger(0)));
            }
            return models;
        });
    }

    /** The generations a live batch writes into, on the batch's own transaction. */
    public Uni<List<ReadModel>> writable(SqlClient tx) {
        return tx.query(WRITABLE).execute().map(rows -> {
            List<ReadModel> models = new ArrayList<>(rows.size());
            for (Row row : rows) {
                models.add(new ReadModel(row.getInteger(0)));
            }
            if (models.isEmpty()) {
                throw new TransactionalBatches.NotReady("no read-model generation to write into yet");
            }
            return models;
        });
    }

    /**
     * Creates a generation in {@code state}: {@code current} only when none exists yet (the first start),
     * {@code building} for a rebuild (empty when one is already building). Creation is serialized across replicas by
     * an advisory lock; the new schema's tables are copies of {@code rm_template}'s, indexes and constraints included.
     */
    public Uni<Optional<ReadModel>> create(String state) {
        return pool.withTransaction(tx -> tx.query("SELECT pg_advisory_xact_lock(hashtext('read_model_generation'))")
                .execute()
                .chain(() -> state.equals("building")
                        ? tx.query("SELECT 1 FROM read_model_generation WHERE state = 'building'").execute()
                        : Uni.createFrom().item((RowSet<Row>) null))
                .chain(building -> building != null && building.size() > 0
                        ? Uni.createFrom().item(Optional.<ReadModel>empty())
                        : tx.preparedQuery(NEXT).execute(Tuple.of(state)).chain(inserted -> {
                            if (inserted.size() == 0) {
                                return Uni.createFrom().item(Optional.<ReadModel>empty());
                            }
                            ReadModel model = new ReadModel(inserted.iterator().next().getInteger(0));
                            return copyTemplate(tx, model).replaceWith(Optional.of(model));
                        })));
    }

    private static Uni<Void> copyTemplate(SqlClient tx, ReadModel model) {
        return tx.query("CREATE SCHEMA " + model.schema()).execute()
                .chain(() -> tx.query(TEMPLATE_TABLES).execute())
                .chain(tables -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (Row table : tables) {
                        String name = table.getString(0);
                        chain = chain.chain(() -> tx.query("CREATE TABLE " + model.schema() + "." + name
                                + " (LIKE rm_template." + name + " INCLUDING ALL)").execute().replaceWithVoid());
                    }
                    return chain;
                });
    }

    /** Readers switch to {@code model}: the current generation is retired in the same transaction. */
    public Uni<Void> switchTo(SqlClient tx, ReadModel model) {
        return tx.query("UPDATE read_model_generation SET state = 'retired', retired_at = now() "
                        + "WHERE state = 'current'").execute()
                .chain(() -> tx.preparedQuery("UPDATE read_model_generation SET state = 'current', switched_at = now() "
                        + "WHERE generation = $1").execute(Tuple.of(model.generation())))
                .replaceWithVoid();
    }

    /** Drops retired generations that readers have not used for {@code grace}. */
    public Uni<Integer> dropRetired(Duration grace) {
        return pool.withTransaction(tx -> tx.preparedQuery("SELECT generation FROM read_model_generation "
                        + "WHERE state = 'retired' AND dropped_at IS NULL AND retired_at < now() - make_interval(secs => $1) "
                        + "FOR UPDATE SKIP LOCKED")
                .execute(Tuple.of((double) grace.toSeconds())).chain(rows -> {
                    Uni<Integer> chain = Uni.createFrom().item(0);
                    for (Row row : rows) {
                        ReadModel model = new ReadModel(row.getInteger(0));
                        chain = chain.chain(n -> tx.query("DROP SCHEMA IF EXISTS " + model.schema() + " CASCADE")
                                .execute()
                                .chain(() -> tx.preparedQuery("UPDATE read_model_generation SET dropped_at = now() "
                                        + "WHERE generation = $1").execute(Tuple.of(model.generation())))
                                .invoke(() -> LOG.infof("Dropped retired read-model generation %d", model.generation()))
                                .replaceWith(n + 1));
                    }
                    return chain;
                }));
    }

    public Uni<List<Status>> list() {
        return pool.query(LIST).execute().map(rows -> {
            List<Status> all = new ArrayList<>(rows.size());
            for (Row row : rows) {
                all.add(Status.from(row));
            }
            return all;
        });
    }
}
