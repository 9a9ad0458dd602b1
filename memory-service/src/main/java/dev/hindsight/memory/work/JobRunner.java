package dev.hindsight.memory.work;

import dev.hindsight.events.memory.Embedding;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryMerged;
import dev.hindsight.events.memory.MemoryOrigin;
import dev.hindsight.events.memory.MemoryOutcome;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.events.memory.MemorySignalKind;
import dev.hindsight.memory.bank.MemoryEvents;
import dev.hindsight.memory.bank.MemoryLog;
import dev.hindsight.memory.bank.MemoryRow;
import dev.hindsight.memory.bank.MemoryStore;
import dev.hindsight.memory.bank.VectorKeeper;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.memory.distill.Distiller;
import dev.hindsight.memory.distill.ExistingMemory;
import dev.hindsight.memory.distill.MemoryDraft;
import dev.hindsight.memory.distill.MemoryMerge;
import dev.hindsight.memory.evidence.CompletedSession;
import dev.hindsight.memory.store.VectorStore;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.search.Neighbour;
import dev.hindsight.memorymodel.search.SearchRule;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * What each memory job does. Distillation turns a completed session into drafts ({@link Distiller}), and each draft
 * either becomes a new distilled memory (confidence 0.6) or, when the project already has a memory with the same
 * outcome at least {@code merge-similarity} alike, is merged into it ({@link MemoryMerge}) instead of adding a copy.
 * Outcome jobs give every memory the session retrieved an outcome signal: success or failure as the session ended,
 * or as the QA judge scored it (at or above the success score, or below the failure score; in between, nothing).
 */
@Singleton
class JobRunner {

    private static final String SESSION_USES = """
            SELECT u.memory_id, m.project_id FROM session_memory_use u
            JOIN memory m ON m.id = u.memory_id AND m.tenant_id = u.tenant_id
            WHERE u.tenant_id = $1 AND u.session_id = $2""";

    private final Pool pool;
    private final SessionLoader sessions;
    private final MemoryLog log;
    private final MemoryStore store;
    private final VectorStore vectors;
    private final Embeddings embeddings;
    private final VectorKeeper generations;
    private final MemoryConfig config;
    private final Distiller distiller = new Distiller();
    private final Clock clock = Clock.systemUTC();

    public JobRunner(Pool pool, SessionLoader sessions, MemoryLog log, MemoryStore store, VectorStore vectors,
            Embeddings embeddings, MemoryConfig config, VectorKeeper generations) {
        this.generations = generations;
        this.pool = pool;
        this.sessions = sessions;
        this.log = log;
        this.store = store;
        this.vectors = vectors;
        this.embeddings = embeddings;
        this.config = config;
    }

    public Uni<Void> run(MemoryWorker.Job job) {
        return switch (job.kind()) {
            case "distill" -> distill(job);
            case "session_outcome" -> sessionOutcome(job);
            case "qa_judge" -> verdict(job);
            default -> Uni.createFrom().failure(new IllegalStateException("unknown job kind " + job.kind()));
        };
    }

    private Uni<Void> distill(MemoryWorker.Job job) {
        // Distilling is CPU work on the whole session (patterns over every step): off the event loop.
        return sessions.load(job.tenant(), job.session()).emitOn(Infrastructure.getDefaultWorkerPool())
                .flatMap(session -> {
                    if (session == null) {
                        return Uni.createFrom().voidItem();
                    }
                    List<MemoryDraft> drafts = distiller.distill(session);
                    List<Uni<List<MemoryEvent>>> events = new ArrayList<>();
                    for (int i = 0; i < drafts.size(); i++) {
                        events.add(eventFor(job, session, drafts.get(i), i));
                    }
                    // One draft at a time: a later draft may merge into a memory an earlier one just created.
                    return Multi.createFrom().iterable(events).onItem().transformToUniAndConcatenate(
                            event -> event.flatMap(log::append)).collect().last().replaceWithVoid();
                });
    }

    private Uni<List<MemoryEvent>> eventFor(MemoryWorker.Job job, CompletedSession session, MemoryDraft draft,
            int index) {
        String project = session.projectId();
        UUID eventId = MemoryEvents.derivedId(job.tenant().value(), job.session(), "distill", Integer.toString(index));
        String model = generations.searchModel();
        return Uni.createFrom().deferred(() -> embeddings.embed(model,
                        SearchRule.embeddingText(draft.title(), draft.description(), draft.content())))
                .flatMap(vector -> vectors.nearest(job.tenant(), project, model, vector, 5)
                        .flatMap(near -> store.byIds(job.tenant(), near.stream().map(Neighbour::memoryId)
                                .toList()).map(rows -> {
                                    for (Neighbour n : near) {
                                        MemoryRow row = rows.get(n.memoryId());
                                        if (row != null && n.similarity() >= config.distill().mergeSimilarity()
                                                && row.outcome().equals(draft.outcome())) {
                                            return merged(job, eventId, row, draft, n.similarity(),
                                                    MemoryEvents.embedding(model, vector));
                                        }
                                    }
                                    return List.of(recorded(job, eventId, project, draft,
                                            MemoryEvents.embedding(model, vector), index));
                                })));
    }

    private MemoryEvent recorded(MemoryWorker.Job job, UUID eventId, String project, MemoryDraft draft,
            Embedding embedding, int index) {
        UUID memoryId = MemoryEvents.derivedId(job.tenant().value(), job.session(), "memory", Integer.toString(index));
        MemoryRecorded recorded = MemoryRecorded.newBuilder().setOrigin(MemoryOrigin.DISTILLED)
                .setTitle(draft.title()).setDescription(draft.description()).setContent(draft.content())
                .setOutcome(MemoryOutcome.valueOf(draft.outcome().toUpperCase(Locale.ROOT)))
                .setTags(draft.tags()).setSourceSessionIds(List.of(job.session()))
                .setEmbedding(embedding).setVia("distiller").build();
        return MemoryEvents.event(header(job, eventId), project, memoryId, recorded);
    }

    /**
     * The merge itself, and a positive outcome signal from the merged session: another session independently arriving
     * at the same lesson with the same outcome corroborates it (it is how a distilled memory, which starts below
     * MinConfidence, becomes searchable without anyone rating it: two corroborations lift 0.6 to 0.71).
     */
    private List<MemoryEvent> merged(MemoryWorker.Job job, UUID eventId, MemoryRow existing, MemoryDraft draft,
            double similarity, Embedding embedding) {
        MemoryMerge.Merged result = MemoryMerge.merge(new ExistingMemory(existing.id().toString(), existing.title(),
                existing.description(), existing.content(), existing.outcome(), existing.tags(),
                existing.sourceSessionIds()), draft);
        if (!result.changed()) {
            return List.of();   // this session was merged already (a retried job)
        }
        ExistingMemory after = result.memory();
        MemoryMerged event = MemoryMerged.newBuilder().setDescription(after.description())
                .setContent(after.content()).setTags(after.tags()).setSourceSessionIds(after.sourceSessionIds())
                .setEmbedding(result.contentReplaced() ? embedding : null)
                .setMergedSessionId(job.session()).setSimilarity(similarity).build();
        UUID corroboration = MemoryEvents.derivedId(eventId.toString(), "corroboration");
        return List.of(MemoryEvents.event(header(job, eventId), existing.project(), existing.id(), event),
                MemoryEvents.event(header(job, corroboration), existing.project(), existing.id(),
                        MemoryEvents.signal(MemorySignalKind.OUTCOME, true, job.session(), "distiller", null)));
    }

    private Uni<Void> sessionOutcome(MemoryWorker.Job job) {
        return pool.preparedQuery("SELECT outcome FROM tracked_session WHERE tenant_id = $1 AND session_id = $2")
                .execute(Tuple.of(job.tenant().value(), job.session())).flatMap(rows -> {
                    String outcome = rows.size() == 0 ? null : rows.iterator().next().getString(0);
                    if (!"success".equals(outcome) && !"failure".equals(outcome)) {
                        return Uni.createFrom().voidItem();
                    }
                    return outcomeSignals(job, "success".equals(outcome), "session_outcome");
                });
    }

    private Uni<Void> verdict(MemoryWorker.Job job) {
        return pool.preparedQuery("SELECT judge_score FROM tracked_session WHERE tenant_id = $1 AND session_id = $2")
                .execute(Tuple.of(job.tenant().value(), job.session())).flatMap(rows -> {
                    Integer score = rows.size() == 0 ? null : rows.iterator().next().getInteger(0);
                    if (score == null) {
                        return Uni.createFrom().voidItem();
                    }
                    if (score >= config.distill().qaSuccessScore()) {
                        return outcomeSignals(job, true, "qa_judge");
                    }
                    return score < config.distill().qaFailureScore() ? outcomeSignals(job, false, "qa_judge")
                            : Uni.createFrom().voidItem();
                });
    }

    private Uni<Void> outcomeSignals(MemoryWorker.Job job, boolean succeeded, String source) {
        return pool.preparedQuery(SESSION_USES).execute(Tuple.of(job.tenant().value(), job.session())).flatMap(rows -> {
            List<MemoryEvent> events = new ArrayList<>();
            for (Row row : rows) {
                UUID memory = row.getUUID(0);
                UUID eventId = MemoryEvents.derivedId(job.tenant().value(), job.session(), source, memory.toString());
                events.add(MemoryEvents.event(header(job, eventId), row.getString(1), memory,
                        MemoryEvents.signal(MemorySignalKind.OUTCOME, succeeded, job.session(), source, null)));
            }
            return log.append(events);
        });
    }

    private dev.hindsight.events.EventHeader header(MemoryWorker.Job job, UUID eventId) {
        return MemoryEvents.header(eventId, job.tenant(), MemoryEvents.SERVICE_PRINCIPAL, null, clock);
    }
}
