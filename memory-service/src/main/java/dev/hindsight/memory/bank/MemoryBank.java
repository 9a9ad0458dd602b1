package dev.hindsight.memory.bank;

import dev.hindsight.events.memory.MemoryDeleted;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryOrigin;
import dev.hindsight.events.memory.MemoryOutcome;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.events.memory.MemorySignalKind;
import dev.hindsight.events.memory.ProjectPurged;
import dev.hindsight.events.memory.WeightVote;
import dev.hindsight.events.memory.WeightVotes;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.memory.store.VectorStore;
import dev.hindsight.memorymodel.confidence.Beta;
import dev.hindsight.memorymodel.confidence.ProjectWeights;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.embedding.NothingToEmbed;
import dev.hindsight.memorymodel.search.Nearest;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import io.micrometer.core.instrument.Metrics;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The ReasoningBank's operations: record, search, feedback, outcome, get, delete. REST and MCP both call these, so the
 * two surfaces behave identically. Every change is an event on hindsight.memory.v1 ({@link MemoryLog}); every read is
 * scoped to the caller's tenant, and another tenant's memory is simply not found.
 */
@Singleton
public class MemoryBank {

    private static final Logger LOG = Logger.getLogger(MemoryBank.class);

    private final MemoryStore store;
    private final MemoryLog log;
    private final VectorStore vectors;
    private final Embeddings embeddings;
    private final MemoryConfig config;
    private final VectorKeeper generations;
    private final Redactor redactor;
    private final Clock clock = Clock.systemUTC();

    public MemoryBank(MemoryStore store, MemoryLog log, VectorStore vectors, Embeddings embeddings,
            MemoryConfig config, VectorKeeper generations, Redactor redactor) {
        this.redactor = redactor;
        this.generations = generations;
        this.store = store;
        this.log = log;
        this.vectors = vectors;
        this.embeddings = embeddings;
        this.config = config;
    }

    /** A recorded memory, and whether this call created it (false: an identical record already existed). */
    public record Recorded(MemoryRow memory, boolean created) {
    }

    /**
     * Created at once, bypassing distillation (design.md § Memories), at confidence 0.8, with its secrets redacted as
     * the tenant's policy says. Identical records are one
     * memory: the id is derived from what the memory says ({@link NewMemory#identity}), so a retried call (a timeout
     * after the event was written, a host that repeats a tool call) answers the memory the first call made, and two
     * identical calls racing write one row (the projection inserts an id only once).
     */
    public Uni<Recorded> record(Caller caller, String project, NewMemory sent) {
        // Redacted before anything is derived from it: the id, the embedding and the event (design.md § Redaction).
        NewMemory memory = sent.redacted(text -> redactor.text(caller.tenant(), text));
        UUID id = memory.identity(caller.tenant(), project);
        return store.byId(caller.tenant(), id).flatMap(existing -> existing.isPresent()
                ? Uni.createFrom().item(new Recorded(existing.get(), false))
                : create(caller, project, memory, id).map(row -> new Recorded(row, true)));
    }

    private Uni<MemoryRow> create(Caller caller, String project, NewMemory memory, UUID id) {
        // The model searches use now, so the memory is found at once; a generation building meanwhile adds its own.
        String model = generations.searchModel();
        return Stages.timed("record", "embed", () -> embeddings.embed(model,
                        SearchRule.embeddingText(memory.title(), memory.description(), memory.content())))
                .flatMap(vector -> {
                    MemoryRecorded recorded = MemoryRecorded.newBuilder()
                            .setOrigin(MemoryOrigin.EXPLICIT).setTitle(memory.title())
                            .setDescription(memory.description()).setContent(memory.content())
                            .setOutcome(MemoryOutcome.valueOf(memory.outcome().toUpperCase(Locale.ROOT)))
                            .setTags(memory.tags()).setSourceSessionIds(memory.sourceSessionIds())
                            .setEmbedding(MemoryEvents.embedding(model, vector))
                            .setVia(caller.via()).build();
                    return log.append(List.of(event(caller, project, id, recorded)));
                })
                .flatMap(done -> Stages.timed("record", "read", () -> get(caller.tenant(), id)));
    }

    public Uni<MemoryRow> get(TenantId tenant, UUID id) {
        return store.byId(tenant, id).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    /**
     * The search rule (design.md § Semantic search): the project's most relevant memories, post-filtered to confidence
     * ≥ MinConfidence, most relevant first; each one returned gets a usage signal (with the session, when the caller
     * names one, so the session's outcome can later count for it). The answer does not wait for the usage signals: they
     * are evidence the service gathers, not something the caller asked to be made durable, and waiting for their Kafka
     * acknowledgement and transaction would add a write's latency to every search (docs/benchmarks.md). Nor are they
     * applied by the request: nobody reads them back at once, so the {@code memories} consumer applies them, many
     * searches' worth per transaction. A signal that cannot be recorded is logged and counted ({@code
     * hindsight_memory_usage_unrecorded_total}).
     */
    public Uni<List<Found>> search(Caller caller, String project, String query, int limit, String sessionId,
            String source) {
        return find(caller.tenant(), project, query, limit)
                .invoke(found -> recordUsageLater(caller, found, sessionId, source));
    }

    /** {@link #search} without recording usage: for callers that hand on only some of the results. */
    public Uni<List<Found>> find(TenantId tenant, String project, String query, int limit) {
        return find(tenant, project, query, limit, "query", true);
    }

    /**
     * {@link #find}, naming {@code field} as the one at fault when the model can read nothing in the text; without
     * {@code probation}, only confident memories (a context block goes into a prompt, design.md § Context injection).
     */
    public Uni<List<Found>> find(TenantId tenant, String project, String query, int limit, String field,
            boolean probation) {
        int candidates = SearchRule.candidates(limit, config.search().candidatesPerResult(),
                config.search().minCandidates());
        int read = SearchRule.neighboursRead(candidates, config.search().hubnessPool(), config.search().hubness());
        String model = generations.searchModel();
        return Stages.timed("search", "embed", () -> embeddings.embed(model, query))
                .onFailure(NothingToEmbed.class).transform(e -> ProblemException.badRequest(
                        "The text cannot be searched for", List.of(new Problem.FieldError(field, e.getMessage()))))
                .flatMap(vector -> nearest(tenant, project, model, vector, read))
                .flatMap(nearest -> Stages.timed("search", "load", () -> store.byIds(tenant,
                                SearchRule.candidateIds(nearest.neighbours(), candidates)))
                        .map(memories -> rank(nearest, memories, limit, candidates, probation)));
    }

    /** The project's {@code k} nearest neighbours to {@code vector} (by relevance, unless configured otherwise). */
    private Uni<Nearest> nearest(TenantId tenant, String project, String model, float[] vector, int k) {
        return vectors.centre(tenant, project, model).flatMap(centre -> Stages.timed("search", "nearest",
                        () -> vectors.nearest(tenant, project, model, config.search().relevance()
                                ? SearchRule.relevanceQuery(vector, centre) : vector, k, centre))
                .map(found -> new Nearest(centre, found.stream().map(n -> n.foundFor(vector)).toList())));
    }

    private List<Found> rank(Nearest nearest, Map<UUID, MemoryRow> memories, int limit, int candidates,
            boolean probation) {
        return SearchRule.rank(nearest.neighbours(), nearest.centre(), memories, MemoryRow.FACTS,
                new SearchRule.Policy(config.search().minConfidence(),
                        probation ? config.search().probationSlots() : 0, config.search().duplicateSimilarity(),
                        config.search().hubness(), candidates), limit, Found::new);
    }

    /**
     * {@code found} as it is, unless it is empty and the tenant has no memory in the project at all: then 404 (so
     * another tenant's project is a 404 too). Checked only for an empty answer: a memory found proves the project.
     */
    public Uni<List<Found>> orNotFound(TenantId tenant, String project, List<Found> found) {
        return found.isEmpty() ? requireProject(tenant, project).replaceWith(found) : Uni.createFrom().item(found);
    }

    /** Usage signals for memories handed to a caller (search results, an injected context). */
    public List<MemoryEvent> usage(Caller caller, List<Found> found, String sessionId, String source) {
        List<MemoryEvent> events = new ArrayList<>(found.size());
        for (Found hit : found) {
            MemoryRow memory = hit.memory();
            events.add(event(caller, memory.project(), memory.id(),
                    MemoryEvents.signal(MemorySignalKind.USAGE, true, sessionId, source, null)));
        }
        return events;
    }

    /** Records usage signals for memories handed to a caller, in the background (see {@link #search}). */
    public void recordUsageLater(Caller caller, List<Found> found, String sessionId, String source) {
        List<MemoryEvent> events = usage(caller, found, sessionId, source);
        if (events.isEmpty()) {
            return;
        }
        log.publish(events).subscribe().with(done -> { }, failure -> {
            Metrics.counter("hindsight.memory.usage.unrecorded").increment(events.size());
            LOG.warnf("Could not record %d usage signal(s) for project %s: %s", events.size(),
                    found.get(0).memory().project(), failure.toString());
        });
    }

    /**
     * Explicit feedback (design.md § Signal weights): an explicit signal, and LearnFromFeedback: the project's weights
     * learn whether this memory's other signals had predicted the verdict. The votes travel in the event, so replay
     * learns the same.
     */
    public Uni<MemoryRow> feedback(Caller caller, UUID id, boolean helpful, String sessionId) {
        return get(caller.tenant(), id).flatMap(memory -> {
            ProjectWeights learned = memory.weights().learnFromFeedback(helpful, memory.counts());
            WeightVotes votes = WeightVotes.newBuilder()
                    .setExplicit(vote(memory.weights().explicit(), learned.explicit()))
                    .setUsage(vote(memory.weights().usage(), learned.usage()))
                    .setOutcome(vote(memory.weights().outcome(), learned.outcome())).build();
            return log.append(List.of(event(caller, memory.project(), id,
                    MemoryEvents.signal(MemorySignalKind.EXPLICIT, helpful, sessionId, caller.via(), votes))));
        }).flatMap(done -> get(caller.tenant(), id));
    }

    /** An outcome signal (design.md § Confidence): the agent's task succeeded or failed after using the memory. */
    public Uni<MemoryRow> outcome(Caller caller, UUID id, boolean succeeded, String sessionId) {
        return get(caller.tenant(), id).flatMap(memory -> log.append(List.of(event(caller, memory.project(), id,
                        MemoryEvents.signal(MemorySignalKind.OUTCOME, succeeded, sessionId, caller.via(), null)))))
                .flatMap(done -> get(caller.tenant(), id));
    }

    public Uni<Void> delete(Caller caller, UUID id) {
        return get(caller.tenant(), id).flatMap(memory -> log.append(List.of(event(caller, memory.project(), id,
                MemoryDeleted.newBuilder().setReason("deleted through " + caller.via()).build()))));
    }

    /** Deletes every memory of the caller's project (only the caller's tenant's: projects are per tenant). */
    public Uni<Void> deleteProject(Caller caller, String project) {
        return requireProject(caller.tenant(), project).flatMap(exists -> log.append(List.of(event(caller, project,
                null, ProjectPurged.newBuilder().setReason("deleted through " + caller.via()).build()))));
    }

    /** Fails with 404 when the tenant has no memory in the project (so another tenant's project is a 404 too). */
    public Uni<Boolean> requireProject(TenantId tenant, String project) {
        return store.projectExists(tenant, project).invoke(exists -> {
            if (!exists) {
                throw ProblemException.notFound("No memories in project " + project + " for this tenant");
            }
        });
    }

    private static WeightVote vote(Beta before, Beta after) {
        if (after.alpha() > before.alpha()) {
            return WeightVote.AGREED;
        }
        return after.beta() > before.beta() ? WeightVote.CONTRADICTED : WeightVote.ABSTAINED;
    }

    private MemoryEvent event(Caller caller, String project, UUID memory, Object payload) {
        return MemoryEvents.event(MemoryEvents.header(null, caller.tenant(), caller.principal(), caller.via(), clock),
                project, memory, payload);
    }

    static ProblemException notFound(UUID id) {
        return ProblemException.notFound("No memory " + id + " for this tenant");
    }
}
