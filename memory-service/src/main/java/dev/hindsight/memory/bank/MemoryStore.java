package dev.hindsight.memory.bank;

import dev.hindsight.memorymodel.confidence.Beta;
import dev.hindsight.memorymodel.confidence.MemoryOrigin;
import dev.hindsight.memorymodel.confidence.ProjectWeights;
import dev.hindsight.memorymodel.confidence.SignalCounts;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Reads memories with their project's weights. Every query is scoped to the caller's tenant. */
@Singleton
public class MemoryStore {

    private static final String COLUMNS = """
            SELECT m.id, m.tenant_id, m.project_id, m.origin, m.title, m.description, m.content, m.outcome, m.tags,
                   m.source_session_ids, m.explicit_positive, m.explicit_negative, m.usage_count, m.outcome_positive,
                   m.outcome_negative, m.created_at, m.updated_at,
                   w.explicit_alpha, w.explicit_beta, w.usage_alpha, w.usage_beta, w.outcome_alpha, w.outcome_beta
            FROM memory m
            LEFT JOIN project_weights w ON w.tenant_id = m.tenant_id AND w.project_id = m.project_id
            """;

    private final Pool pool;

    public MemoryStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Optional<MemoryRow>> byId(TenantId tenant, UUID id) {
        return byId(pool, tenant, id);
    }

    public Uni<Optional<MemoryRow>> byId(SqlClient client, TenantId tenant, UUID id) {
        return client.preparedQuery(COLUMNS + "WHERE m.tenant_id = $1 AND m.id = $2")
                .execute(Tuple.of(tenant.value(), id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(row(rows.iterator().next())));
    }

    /** The tenant's memories among {@code ids}, keyed by id (ids of deleted or foreign memories are absent). */
    public Uni<Map<UUID, MemoryRow>> byIds(TenantId tenant, List<UUID> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(COLUMNS + "WHERE m.tenant_id = $1 AND m.id = ANY($2)")
                .execute(Tuple.of(tenant.value(), ids.toArray(UUID[]::new))).map(rows -> {
                    Map<UUID, MemoryRow> found = new HashMap<>();
                    for (Row row : rows) {
                        MemoryRow memory = row(row);
                        found.put(memory.id(), memory);
                    }
                    return found;
                });
    }

    /**
     * The memories among {@code ids} of whichever tenant: only for work the service does on its own across tenants
     * (building a vector generation), never for a caller's request.
     */
    public Uni<List<MemoryRow>> anyTenant(List<UUID> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery(COLUMNS + "/* every tenant: memories by id, re-embedding */ WHERE m.id = ANY($1) ORDER BY m.id")
                .execute(Tuple.of((Object) ids.toArray(UUID[]::new))).map(MemoryStore::rows);
    }

    /** How many memories there are, across tenants (which model's vectors cover them, design.md § Re-embedding). */
    public Uni<Long> count() {
        return pool.query("SELECT count(*) FROM memory /* every tenant */").execute().map(rows -> rows.iterator().next().getLong(0));
    }

    /** A page of the project's memories, newest first, after the cursor (created_at, id) when given. */
    public Uni<List<MemoryRow>> page(TenantId tenant, String project, Instant beforeCreated, UUID beforeId, int limit) {
        String sql = COLUMNS + "WHERE m.tenant_id = $1 AND m.project_id = $2"
                + (beforeCreated == null ? "" : " AND (m.created_at, m.id) < ($4, $5)")
                + " ORDER BY m.created_at DESC, m.id DESC LIMIT $3";
        Tuple args = Tuple.of(tenant.value(), project, limit);
        if (beforeCreated != null) {
            args.addOffsetDateTime(OffsetDateTime.ofInstant(beforeCreated, java.time.ZoneOffset.UTC)).addUUID(beforeId);
        }
        return pool.preparedQuery(sql).execute(args).map(MemoryStore::rows);
    }

    /** Whether the tenant has any memory in the project: an unknown project (or another tenant's) is a 404. */
    public Uni<Boolean> projectExists(TenantId tenant, String project) {
        return pool.preparedQuery("SELECT EXISTS (SELECT 1 FROM memory WHERE tenant_id = $1 AND project_id = $2)")
                .execute(Tuple.of(tenant.value(), project)).map(rows -> rows.iterator().next().getBoolean(0));
    }

    public Uni<ProjectWeights> weights(TenantId tenant, String project) {
        return pool.preparedQuery("""
                SELECT explicit_alpha, explicit_beta, usage_alpha, usage_beta, outcome_alpha, outcome_beta
                FROM project_weights WHERE tenant_id = $1 AND project_id = $2""")
                .execute(Tuple.of(tenant.value(), project))
                .map(rows -> rows.size() == 0 ? ProjectWeights.PRIORS : weights(rows.iterator().next(), 0));
    }

    private static List<MemoryRow> rows(RowSet<Row> rows) {
        List<MemoryRow> found = new ArrayList<>(rows.size());
        for (Row row : rows) {
            found.add(row(row));
        }
        return found;
    }

    static MemoryRow row(Row row) {
        SignalCounts counts = new SignalCounts(row.getLong("explicit_positive"), row.getLong("explicit_negative"),
                row.getLong("usage_count"), row.getLong("outcome_positive"), row.getLong("outcome_negative"));
        ProjectWeights weights = row.getValue("explicit_alpha") == null ? ProjectWeights.PRIORS
                : weights(row, row.getColumnIndex("explicit_alpha"));
        return new MemoryRow(row.getUUID("id"), TenantId.of(row.getString("tenant_id")), row.getString("project_id"),
                MemoryOrigin.valueOf(row.getString("origin").toUpperCase(java.util.Locale.ROOT)), row.getString("title"),
                row.getString("description"), row.getString("content"), row.getString("outcome"),
                Arrays.asList(row.getArrayOfStrings("tags")), Arrays.asList(row.getArrayOfStrings("source_session_ids")),
                counts, weights, row.getOffsetDateTime("created_at").toInstant(),
                row.getOffsetDateTime("updated_at").toInstant());
    }

    private static ProjectWeights weights(Row row, int first) {
        return new ProjectWeights(new Beta(row.getDouble(first), row.getDouble(first + 1)),
                new Beta(row.getDouble(first + 2), row.getDouble(first + 3)),
                new Beta(row.getDouble(first + 4), row.getDouble(first + 5)));
    }
}
