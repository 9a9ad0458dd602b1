package dev.hindsight.query.memory;

import dev.hindsight.memorymodel.confidence.Beta;
import dev.hindsight.memorymodel.confidence.ConfidenceModel;
import dev.hindsight.memorymodel.confidence.MemoryOrigin;
import dev.hindsight.memorymodel.confidence.ProjectWeights;
import dev.hindsight.memorymodel.confidence.SignalCounts;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.search.Nearest;
import dev.hindsight.memorymodel.search.Neighbour;
import dev.hindsight.memorymodel.search.ProjectCentres;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.memorymodel.search.VectorSearch;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads the ReasoningBank's read model (the current generation), every query scoped to one tenant: a project's
 * memories newest first or by confidence, one memory with the evidence behind its confidence, and search by the
 * rule memory-service applies ({@link SearchRule}) to the same vectors. Nothing here writes: a search from the
 * console records no usage signal.
 */
@Singleton
class MemoryQueries {

    private static final String COLUMNS = """
            SELECT m.memory_id, m.project_id, m.origin, m.title, m.description, m.content, m.outcome, m.tags,
                   m.source_session_ids, m.via, m.explicit_positive, m.explicit_negative, m.usage_count,
                   m.outcome_positive, m.outcome_negative, m.recorded_at, m.updated_at,
                   w.explicit_alpha, w.explicit_beta, w.usage_alpha, w.usage_beta, w.outcome_alpha, w.outcome_beta
            FROM {rm}.memory m
            LEFT JOIN {rm}.memory_project_weights w ON w.tenant_id = m.tenant_id AND w.project_id = m.project_id
            """;
    private static final String RANKED = """
            SELECT m.memory_id, m.origin, m.explicit_positive, m.explicit_negative, m.usage_count, m.outcome_positive,
                   m.outcome_negative, m.recorded_at,
                   w.explicit_alpha, w.explicit_beta, w.usage_alpha, w.usage_beta, w.outcome_alpha, w.outcome_beta
            FROM {rm}.memory m
            LEFT JOIN {rm}.memory_project_weights w ON w.tenant_id = m.tenant_id AND w.project_id = m.project_id
            WHERE m.tenant_id = $1 AND m.project_id = $2""";
    private static final String PROJECTS = """
            SELECT project_id, count(*) AS memories, max(recorded_at) AS latest
            FROM {rm}.memory WHERE tenant_id = $1 GROUP BY project_id ORDER BY project_id LIMIT 1000""";
    private static final String NEAREST = VectorSearch.nearest("{rm}.memory_vector", false);
    private static final String NEAREST_EXACT = VectorSearch.nearest("{rm}.memory_vector", true);
    private static final String CENTRE = VectorSearch.centre("{rm}.memory_vector");
    private static final String SIGNALS = """
            SELECT kind, positive, session_id, source, occurred_at FROM {rm}.memory_signal
            WHERE tenant_id = $1 AND memory_id = $2 ORDER BY occurred_at DESC, event_id LIMIT $3""";
    private static final String DAYS = """
            SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day,
                   count(*) FILTER (WHERE kind = 'explicit' AND positive) AS explicit_positive,
                   count(*) FILTER (WHERE kind = 'explicit' AND NOT positive) AS explicit_negative,
                   count(*) FILTER (WHERE kind = 'usage') AS usage_count,
                   count(*) FILTER (WHERE kind = 'outcome' AND positive) AS outcome_positive,
                   count(*) FILTER (WHERE kind = 'outcome' AND NOT positive) AS outcome_negative
            FROM {rm}.memory_signal WHERE tenant_id = $1 AND memory_id = $2
            GROUP BY day ORDER BY day DESC LIMIT 90""";
    private static final String MERGES = """
            SELECT merged_session_id, similarity, merged_at FROM {rm}.memory_merge
            WHERE tenant_id = $1 AND memory_id = $2 ORDER BY merged_at DESC, event_id LIMIT 100""";
    private static final String KNOWN_SESSIONS = """
            SELECT session_id FROM {rm}.session WHERE tenant_id = $1 AND session_id = ANY($2)""";

    /** A project of the tenant's and how many memories it holds. */
    public record Project(String id, long memories, Instant latest) {
    }

    /** A search hit: a memory, its cosine similarity to the query and whether it is shown on probation. */
    public record Hit(MemoryView memory, double similarity, boolean probation) {
    }

    /** One signal as recorded: explicit feedback, a usage (a search or context that returned it) or an outcome. */
    public record Signal(String kind, boolean positive, String sessionId, String source, Instant at) {
    }

    /** A distilled near-duplicate merged into the memory. */
    public record Merge(String sessionId, double similarity, Instant at) {
    }

    /** One memory with what its page shows. */
    public record Detail(MemoryView memory, List<Signal> signals, List<Day> days, List<Merge> merges,
            Set<String> knownSessions) {
    }

    /** A day's signals (UTC). */
    public record Day(LocalDate day, SignalCounts counts) {
    }

    /** A page of a project's memories and where the next one starts (null at the end). */
    public record Page(List<MemoryView> memories, String next) {
    }

    private static final SearchRule.Facts<MemoryView> FACTS =
            SearchRule.Facts.of(MemoryView::confidence, MemoryView::origin, MemoryView::outcome);

    private final ProjectCentres<TenantId> centres = ProjectCentres.forSearch();
    private final boolean relevance;
    private final Pool pool;
    private final Generations generations;
    private final Embeddings embeddings;
    private final MemoryVectors vectors;
    private final double minConfidence;
    private final int candidatesPerResult;
    private final int probationSlots;
    private final double duplicateSimilarity;
    private final int minCandidates;
    private final int hubnessPool;
    private final double hubness;

    public MemoryQueries(Pool pool, Generations generations, Embeddings embeddings, MemoryVectors vectors,
            @ConfigProperty(name = "hindsight.memory.search.min-confidence",
                    defaultValue = SearchRule.DEFAULT_MIN_CONFIDENCE) double minConfidence,
            @ConfigProperty(name = "hindsight.memory.search.candidates-per-result",
                    defaultValue = SearchRule.DEFAULT_CANDIDATES_PER_RESULT) int candidatesPerResult,
            @ConfigProperty(name = "hindsight.memory.search.probation-slots",
                    defaultValue = SearchRule.DEFAULT_PROBATION_SLOTS) int probationSlots,
            @ConfigProperty(name = "hindsight.memory.search.duplicate-similarity",
                    defaultValue = SearchRule.DEFAULT_DUPLICATE_SIMILARITY) double duplicateSimilarity,
            @ConfigProperty(name = "hindsight.memory.search.relevance", defaultValue = "true") boolean relevance,
            @ConfigProperty(name = "hindsight.memory.search.min-candidates",
                    defaultValue = SearchRule.DEFAULT_MIN_CANDIDATES) int minCandidates,
            @ConfigProperty(name = "hindsight.memory.search.hubness-pool",
                    defaultValue = SearchRule.DEFAULT_HUBNESS_POOL) int hubnessPool,
            @ConfigProperty(name = "hindsight.memory.search.hubness",
                    defaultValue = SearchRule.DEFAULT_HUBNESS) double hubness) {
        this.pool = pool;
        this.generations = generations;
        this.embeddings = embeddings;
        this.vectors = vectors;
        this.minConfidence = minConfidence;
        this.candidatesPerResult = candidatesPerResult;
        this.probationSlots = probationSlots;
        this.duplicateSimilarity = duplicateSimilarity;
        this.relevance = relevance;
        this.minCandidates = minCandidates;
        this.hubnessPool = hubnessPool;
        this.hubness = hubness;
    }

    public Uni<List<Project>> projects(TenantId tenant) {
        return read(PROJECTS, Tuple.of(tenant.value())).map(rows -> {
            List<Project> projects = new ArrayList<>(rows.size());
            for (Row row : rows) {
                projects.add(new Project(row.getString(0), row.getLong(1), row.getOffsetDateTime(2).toInstant()));
            }
            return projects;
        });
    }

    /** Whether the tenant has a memory in the project (another tenant's project is not the tenant's). */
    public Uni<Boolean> projectExists(TenantId tenant, String project) {
        return read("SELECT EXISTS (SELECT 1 FROM {rm}.memory WHERE tenant_id = $1 AND project_id = $2)",
                Tuple.of(tenant.value(), project)).map(rows -> rows.iterator().next().getBoolean(0));
    }

    /**
     * The project's memories newest first, from the keyset cursor {@code after} ({@link #cursor} of the last one
     * shown) when given.
     */
    public Uni<Page> newest(TenantId tenant, String project, String after, int limit) {
        Optional<Cursor> cursor = Cursor.parse(after);
        String sql = COLUMNS + "WHERE m.tenant_id = $1 AND m.project_id = $2"
                + (cursor.isPresent() ? " AND (m.recorded_at, m.memory_id) < ($4, $5)" : "")
                + " ORDER BY m.recorded_at DESC, m.memory_id DESC LIMIT $3";
        Tuple args = Tuple.of(tenant.value(), project, limit + 1);
        cursor.ifPresent(c -> args.addOffsetDateTime(c.at().atOffset(ZoneOffset.UTC)).addUUID(c.id()));
        return read(sql, args).map(rows -> {
            List<MemoryView> memories = views(rows);
            if (memories.size() <= limit) {
                return new Page(memories, null);
            }
            List<MemoryView> shown = memories.subList(0, limit);
            return new Page(List.copyOf(shown), cursor(shown.get(limit - 1)));
        });
    }

    /**
     * The project's memories by confidence, highest first (then newest), page {@code page} (from 0). Confidence
     * depends on the project's weights as they are now, so there is no stable keyset: pages are counted, and the
     * ranking reads the counts of every memory of the project (narrow rows; the page's whole rows are read after).
     */
    public Uni<Page> byConfidence(TenantId tenant, String project, int page, int limit) {
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(RANKED)).execute(Tuple.of(tenant.value(), project))
                .chain(rows -> {
                    record Ranked(UUID id, double confidence, Instant at) {
                    }
                    List<Ranked> all = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        SignalCounts counts = counts(row);
                        all.add(new Ranked(row.getUUID("memory_id"), ConfidenceModel.confidence(
                                MemoryOrigin.valueOf(row.getString("origin").toUpperCase(Locale.ROOT)), counts,
                                weights(row)), row.getOffsetDateTime("recorded_at").toInstant()));
                    }
                    all.sort(Comparator.comparingDouble(Ranked::confidence).reversed()
                            .thenComparing(Ranked::at, Comparator.reverseOrder()).thenComparing(Ranked::id));
                    int from = Math.min(all.size(), page * limit);
                    int to = Math.min(all.size(), from + limit);
                    List<UUID> ids = all.subList(from, to).stream().map(Ranked::id).toList();
                    String next = to < all.size() ? String.valueOf(page + 1) : null;
                    return byIds(rm, tenant, ids).map(found -> new Page(ids.stream().map(found::get)
                            .filter(java.util.Objects::nonNull).toList(), next));
                }));
    }

    /**
     * The search rule (design.md § Semantic search) over the project, as memory-service answers it, without recording
     * usage.
     */
    public Uni<List<Hit>> search(TenantId tenant, String project, String query, int limit) {
        int candidates = SearchRule.candidates(limit, candidatesPerResult, minCandidates);
        int read = SearchRule.neighboursRead(candidates, hubnessPool, hubness);
        String model = vectors.searchModel();
        return embeddings.embed(model, query).chain(vector -> generations.current().chain(rm ->
                nearest(rm, tenant, project, model, vector, read).chain(nearest -> byIds(rm, tenant,
                                SearchRule.candidateIds(nearest.neighbours(), candidates))
                        .map(found -> SearchRule.rank(nearest.neighbours(), nearest.centre(), found, FACTS,
                                new SearchRule.Policy(minConfidence, probationSlots, duplicateSimilarity, hubness,
                                        candidates), limit, Hit::new)))));
    }

    /** The project's {@code k} nearest neighbours to {@code vector}, as memory-service finds them. */
    private Uni<Nearest> nearest(ReadModel rm, TenantId tenant, String project, String model, float[] vector, int k) {
        return centres.centre(tenant, project, model, () -> pool.preparedQuery(rm.sql(CENTRE))
                        .execute(Tuple.of(tenant.value(), project, model, SearchRule.CENTRE_AVERAGES_AT_MOST))
                        .map(rows -> SearchRule.centreOf(rows.iterator().next().getArrayOfFloats(0),
                                rows.iterator().next().getLong(1))))
                .chain(centre -> {
                    Tuple args = Tuple.of(tenant.value(), project, model, SearchRule.vectorLiteral(
                            relevance ? SearchRule.relevanceQuery(vector, centre) : vector), k);
                    return VectorSearch.nearest(centre, k, exact -> pool.preparedQuery(
                            rm.sql(exact ? NEAREST_EXACT : NEAREST)).execute(args), RowSet::size)
                            .map(rows -> new Nearest(centre, neighbours(rows, vector)));
                });
    }

    /**
     * The neighbours a search read, each with its own vector, as memory-service's search reads them: to measure its
     * hubness, to collapse near-duplicates and to measure its similarity to the {@code query} itself.
     */
    private static List<Neighbour> neighbours(RowSet<Row> rows, float[] query) {
        List<Neighbour> neighbours = new ArrayList<>(rows.size());
        for (Row row : rows) {
            neighbours.add(new Neighbour(row.getUUID(0), row.getDouble(1),
                    SearchRule.vectorOf(row.getArrayOfFloats(2))).foundFor(query));
        }
        return neighbours;
    }

    /** One memory of the tenant's with its recent signals, their daily totals, its merges; empty when not found. */
    public Uni<Optional<Detail>> detail(TenantId tenant, UUID id, int signals) {
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(COLUMNS
                        + "WHERE m.tenant_id = $1 AND m.memory_id = $2")).execute(Tuple.of(tenant.value(), id))
                .chain(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().item(Optional.<Detail>empty());
                    }
                    MemoryView memory = view(rows.iterator().next());
                    Uni<List<Signal>> recent = pool.preparedQuery(rm.sql(SIGNALS)).execute(Tuple.of(tenant.value(), id, signals))
                            .map(MemoryQueries::signals);
                    Uni<List<Day>> days = pool.preparedQuery(rm.sql(DAYS)).execute(Tuple.of(tenant.value(), id))
                            .map(MemoryQueries::days);
                    Uni<List<Merge>> merges = pool.preparedQuery(rm.sql(MERGES)).execute(Tuple.of(tenant.value(), id))
                            .map(MemoryQueries::merges);
                    return Uni.combine().all().unis(recent, days, merges).asTuple().chain(parts -> {
                        Set<String> named = new HashSet<>(memory.sourceSessionIds());
                        parts.getItem3().forEach(m -> {
                            if (m.sessionId() != null) {
                                named.add(m.sessionId());
                            }
                        });
                        parts.getItem1().forEach(s -> {
                            if (s.sessionId() != null) {
                                named.add(s.sessionId());
                            }
                        });
                        return known(rm, tenant, named).map(known -> Optional.of(new Detail(memory, parts.getItem1(),
                                parts.getItem2(), parts.getItem3(), known)));
                    });
                }));
    }

    /** Which of {@code sessions} the read model holds for the tenant (those get links to their pages). */
    private Uni<Set<String>> known(ReadModel rm, TenantId tenant, Set<String> sessions) {
        if (sessions.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return pool.preparedQuery(rm.sql(KNOWN_SESSIONS)).execute(Tuple.of(tenant.value(), sessions.toArray(String[]::new)))
                .map(rows -> {
                    Set<String> known = new HashSet<>();
                    for (Row row : rows) {
                        known.add(row.getString(0));
                    }
                    return known;
                });
    }

    /** The tenant's memories among {@code ids}, by id (deleted or foreign ones are absent). */
    private Uni<Map<UUID, MemoryView>> byIds(ReadModel rm, TenantId tenant, List<UUID> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(rm.sql(COLUMNS + "WHERE m.tenant_id = $1 AND m.memory_id = ANY($2)"))
                .execute(Tuple.of(tenant.value(), ids.toArray(UUID[]::new))).map(rows -> {
                    Map<UUID, MemoryView> found = new HashMap<>();
                    for (MemoryView memory : views(rows)) {
                        found.put(memory.id(), memory);
                    }
                    return found;
                });
    }

    private Uni<RowSet<Row>> read(String sql, Tuple args) {
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(sql)).execute(args));
    }

    /** The keyset cursor after {@code memory} in newest-first order. */
    public static String cursor(MemoryView memory) {
        Instant at = memory.recordedAt();
        return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1000) + "_"
                + memory.id();
    }

    /** A cursor as {@link #cursor} writes it: microseconds since the epoch, '_', the memory id. */
    record Cursor(Instant at, UUID id) {

        static Optional<Cursor> parse(String text) {
            if (text == null || text.isEmpty()) {
                return Optional.empty();
            }
            int split = text.indexOf('_');
            try {
                long micros = Long.parseLong(text.substring(0, split));
                return Optional.of(new Cursor(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000),
                        Math.floorMod(micros, 1_000_000) * 1000L), UUID.fromString(text.substring(split + 1))));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("Not a memory cursor: " + text, e);
            }
        }
    }

    private static List<MemoryView> views(RowSet<Row> rows) {
        List<MemoryView> views = new ArrayList<>(rows.size());
        for (Row row : rows) {
            views.add(view(row));
        }
        return views;
    }

    private static SignalCounts counts(Row row) {
        return new SignalCounts(row.getLong("explicit_positive"), row.getLong("explicit_negative"),
                row.getLong("usage_count"), row.getLong("outcome_positive"), row.getLong("outcome_negative"));
    }

    private static ProjectWeights weights(Row row) {
        return row.getValue("explicit_alpha") == null ? ProjectWeights.PRIORS
                : new ProjectWeights(new Beta(row.getDouble("explicit_alpha"), row.getDouble("explicit_beta")),
                        new Beta(row.getDouble("usage_alpha"), row.getDouble("usage_beta")),
                        new Beta(row.getDouble("outcome_alpha"), row.getDouble("outcome_beta")));
    }

    static MemoryView view(Row row) {
        SignalCounts counts = counts(row);
        ProjectWeights weights = weights(row);
        return new MemoryView(row.getUUID("memory_id"), row.getString("project_id"),
                MemoryOrigin.valueOf(row.getString("origin").toUpperCase(Locale.ROOT)), row.getString("title"),
                row.getString("description"), row.getString("content"), row.getString("outcome"),
                Arrays.asList(row.getArrayOfStrings("tags")), Arrays.asList(row.getArrayOfStrings("source_session_ids")),
                row.getString("via"), counts, weights, row.getOffsetDateTime("recorded_at").toInstant(),
                row.getOffsetDateTime("updated_at").toInstant());
    }

    private static List<Signal> signals(RowSet<Row> rows) {
        List<Signal> signals = new ArrayList<>(rows.size());
        for (Row row : rows) {
            signals.add(new Signal(row.getString(0), row.getBoolean(1), row.getString(2), row.getString(3),
                    row.getOffsetDateTime(4).toInstant()));
        }
        return signals;
    }

    private static List<Day> days(RowSet<Row> rows) {
        List<Day> days = new ArrayList<>(rows.size());
        for (Row row : rows) {
            days.add(new Day(row.getLocalDate(0), new SignalCounts(row.getLong(1), row.getLong(2), row.getLong(3),
                    row.getLong(4), row.getLong(5))));
        }
        return days;
    }

    private static List<Merge> merges(RowSet<Row> rows) {
        List<Merge> merges = new ArrayList<>(rows.size());
        for (Row row : rows) {
            merges.add(new Merge(row.getString(0), row.getDouble(1), row.getOffsetDateTime(2).toInstant()));
        }
        return merges;
    }
}
