package dev.hindsight.query.readmodel;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hindsight.platform.tenant.TenantId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Rendered read answers kept in memory until the projection announces a change to what they show (ADR 0009). Every
 * replica hears every replica's changes through {@link dev.hindsight.query.readmodel.ChangeFeed}; while that feed is not
 * listening the cache is closed (reads go to PostgreSQL and nothing is kept), and it starts empty each time the feed
 * listens again, so an answer is never older than the last change announced for it.
 *
 * <p>A load that a change overtakes is dropped, not kept: the change removes the pending entry, and its readers
 * (who asked before the change was announced) get the answer they would have got without a cache.
 *
 * <p>An answer is kept from its second read (unless {@code admit-first-read}): a {@link Doorkeeper} remembers which
 * answers were read lately. Reads spread uniformly over millions of sessions would otherwise each put an answer into
 * the cache that is evicted unread; such answers outlive young collections, which makes those collections, and so the
 * slowest reads, longer (docs/benchmarks.md).
 */
@ApplicationScoped
public class ReadCache implements ChangeListener {

    private static final Logger LOG = Logger.getLogger(ReadCache.class);
    static final String SESSION = "session";
    static final String TRACE = "trace";
    static final String REASONING = "reasoning";
    /** The console's session page, as an admin sees it (with the operations link) and as anyone else does. */
    static final String CONSOLE_SESSION = "console-session";
    static final String CONSOLE_SESSION_ADMIN = "console-session-admin";

    /** What is cached: an answer of one endpoint family for one tenant. */
    record Key(TenantId tenant, String kind, String id) {
    }

    /** The filters of a cached {@code GET /reasoning} answer, to tell which newly started sessions it would show. */
    public record ReasoningFilters(String jobId, LocalDate date, String model) {

        boolean matches(Change.TradingDay day) {
            return (jobId == null || jobId.equals(day.jobId())) && (date == null || date.equals(day.date()))
                    && (model == null || model.equals(day.model()));
        }
    }

    private final boolean enabled;
    private final AsyncCache<Key, Rendered> answers;
    private final Doorkeeper doorkeeper;
    /**
     * The cached reasoning answers of each tenant, with their filters: checked against every change of the tenant. A
     * tenant's map is also its lock: an answer enters the cache and this index together, and a change checks both
     * together, so no answer can be cached without being found by the changes that follow.
     */
    private final Map<TenantId, Map<Key, ReasoningFilters>> reasoning = new ConcurrentHashMap<>();
    private volatile boolean open;
    private final Counter hits = counter("hit");
    private final Counter misses = counter("miss");
    private final Counter bypassed = counter("bypass");

    public ReadCache(ReadCacheConfig config) {
        this.enabled = config.enabled();
        this.doorkeeper = config.admitFirstRead() ? null : new Doorkeeper();
        this.answers = Caffeine.newBuilder()
                .maximumWeight(config.maxBytes())
                .<Key, Rendered>weigher((key, answer) -> answer.weight() + 200)
                .expireAfterWrite(config.ttl())
                // Maintenance on the calling thread: no hand-off to a pool on a two-core machine.
                .executor(Runnable::run)
                .buildAsync();
    }

    /** The session view ({@code GET /v1/sessions/{id}}); a failed load (404) is not kept. */
    public Uni<Rendered> session(TenantId tenant, String sessionId, int generation, Supplier<Uni<Rendered>> load) {
        return get(new Key(tenant, SESSION, sessionId), generation, load, null);
    }

    /** The console's page of a session, in the variant an admin sees or the one anyone else sees. */
    public Uni<Rendered> consoleSession(TenantId tenant, boolean admin, String sessionId, int generation,
            Supplier<Uni<Rendered>> load) {
        return get(new Key(tenant, admin ? CONSOLE_SESSION_ADMIN : CONSOLE_SESSION, sessionId), generation, load,
                null);
    }

    /** The trace ({@code GET /v1/traces/{id}}), a session too. */
    public Uni<Rendered> trace(TenantId tenant, String traceId, int generation, Supplier<Uni<Rendered>> load) {
        return get(new Key(tenant, TRACE, traceId), generation, load, null);
    }

    /**
     * The {@code GET /reasoning} answer for these filters, one page of it ({@code page} names it: its cursor and size).
     * A change that drops the answers of these filters drops every page of them.
     */
    public Uni<Rendered> reasoning(TenantId tenant, ReasoningFilters filters, boolean fullConversation, String page,
            int generation, Supplier<Uni<Rendered>> load) {
        String id = filters.jobId() + '\u001f' + filters.date() + '\u001f' + filters.model() + '\u001f'
                + fullConversation + '\u001f' + page;
        return get(new Key(tenant, REASONING, id), generation, load, filters);
    }

    private Uni<Rendered> get(Key key, int generation, Supplier<Uni<Rendered>> load, ReasoningFilters filters) {
        if (!enabled || !open) {
            bypassed.increment();
            return load.get();
        }
        CompletableFuture<Rendered> cached = answers.getIfPresent(key);
        if (cached != null && cached.isDone() && !cached.isCompletedExceptionally() && cached.join() != null) {
            Rendered answer = cached.join();
            if (answer.generation() == generation) {
                hits.increment();
                return Uni.createFrom().item(answer);
            }
            // Readers moved to another generation (a rebuild switched over): this answer is of the old one.
            answers.asMap().remove(key, cached);
        } else if (cached == null && doorkeeper != null && !doorkeeper.remember(key)) {
            // Read for the first time lately: answered, not kept.
            misses.increment();
            return load.get();
        }
        boolean[] loading = {false};
        Throwable[] failure = {null};
        CompletableFuture<Rendered> pending;
        if (filters == null) {
            pending = answers.get(key, (k, executor) -> {
                loading[0] = true;
                return absentOnFailure(load, failure);
            });
        } else {
            Map<Key, ReasoningFilters> ofTenant = reasoning.computeIfAbsent(key.tenant(), t -> new ConcurrentHashMap<>());
            synchronized (ofTenant) {
                ofTenant.put(key, filters);
                pending = answers.get(key, (k, executor) -> {
                    loading[0] = true;
                    return absentOnFailure(load, failure);
                });
            }
        }
        (loading[0] ? misses : hits).increment();
        // A load that failed (most often a 404) left nothing in the cache: its own reader gets the failure, a reader
        // who joined it loads for itself.
        return resumeOnCaller(pending).onItem().ifNull().switchTo(() -> failure[0] != null
                ? Uni.createFrom().failure(failure[0]) : load.get());
    }

    /**
     * The load as the cache's future: a failure completes it empty, which the cache drops without a word, where a
     * failed future would be logged as a warning on every read of a session that does not exist.
     */
    private static CompletableFuture<Rendered> absentOnFailure(Supplier<Uni<Rendered>> load, Throwable[] failure) {
        return load.get().onFailure().invoke(f -> failure[0] = f).onFailure().recoverWithNull()
                .subscribeAsCompletionStage();
    }

    /** Completes on the caller's own Vert.x context when the answer was loaded on another request's. */
    private static Uni<Rendered> resumeOnCaller(CompletableFuture<Rendered> pending) {
        if (pending.isDone() && !pending.isCompletedExceptionally()) {
            return Uni.createFrom().item(pending.join());
        }
        Context context = Vertx.currentContext();
        Uni<Rendered> answer = Uni.createFrom().completionStage(pending);
        return context == null ? answer : answer.emitOn(runnable -> context.runOnContext(ignored -> runnable.run()));
    }

    /** Drops every answer the changes may have made stale. */
    @Override
    public void invalidate(List<Change> changes) {
        for (Change change : changes) {
            if (ChangeCodec.EVERYTHING.equals(change.kind())) {
                answers.synchronous().invalidateAll();
                continue;
            }
            if (!isAboutSessions(change.kind())) {
                continue;
            }
            answers.synchronous().invalidate(new Key(change.tenant(), SESSION, change.id()));
            answers.synchronous().invalidate(new Key(change.tenant(), TRACE, change.id()));
            answers.synchronous().invalidate(new Key(change.tenant(), CONSOLE_SESSION, change.id()));
            answers.synchronous().invalidate(new Key(change.tenant(), CONSOLE_SESSION_ADMIN, change.id()));
            Map<Key, ReasoningFilters> ofTenant = reasoning.get(change.tenant());
            if (ofTenant == null) {
                continue;
            }
            synchronized (ofTenant) {
                var entries = ofTenant.entrySet().iterator();
                while (entries.hasNext()) {
                    Map.Entry<Key, ReasoningFilters> entry = entries.next();
                    CompletableFuture<Rendered> cached = answers.getIfPresent(entry.getKey());
                    if (cached == null) {
                        entries.remove(); // evicted or expired meanwhile
                    } else if (!cached.isDone() || cached.isCompletedExceptionally() || cached.join() == null
                            || cached.join().sessions().contains(change.id())
                            || (change.trading() != null && entry.getValue().matches(change.trading()))) {
                        answers.synchronous().invalidate(entry.getKey());
                        entries.remove();
                    }
                }
            }
        }
    }

    private static boolean isAboutSessions(String kind) {
        return switch (kind) {
            case "session", "session_summarized", "trace_judged", Change.MESSAGE_SUMMARIZED -> true;
            default -> false;
        };
    }

    /** The change feed listens: start keeping answers, from empty. */
    @Override
    public void open() {
        answers.synchronous().invalidateAll();
        open = true;
        LOG.debug("Read cache open");
    }

    /** The change feed stopped listening: changes may go unannounced, so keep nothing until it listens again. */
    @Override
    public void close() {
        open = false;
        answers.synchronous().invalidateAll();
        LOG.debug("Read cache closed");
    }

    public boolean isOpen() {
        return enabled && open;
    }

    /** Answers kept right now (for tests and the metrics endpoint). */
    long size() {
        return answers.synchronous().estimatedSize();
    }

    private static Counter counter(String result) {
        return Counter.builder("hindsight.query.cache.requests")
                .description("Cached read endpoints by result: hit, miss (loaded from PostgreSQL), bypass (cache closed)")
                .tag("result", Objects.requireNonNull(result))
                .register(Metrics.globalRegistry);
    }

    /** Runs pending evictions now (tests). */
    void cleanUp() {
        answers.synchronous().cleanUp();
    }

    /** Bytes of answers kept (tests). */
    long weight() {
        return answers.synchronous().policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    /** For tests: whether an answer for this session is kept. */
    boolean holdsSession(TenantId tenant, String sessionId) {
        return answers.getIfPresent(new Key(tenant, SESSION, sessionId)) != null;
    }

    Set<Key> keys() {
        return answers.asMap().keySet();
    }
}
