package dev.hindsight.memory.bank;

import dev.hindsight.events.memory.MemoryEmbedded;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.memory.store.VectorStore;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.embedding.NothingToEmbed;
import dev.hindsight.memorymodel.search.SearchModel;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.memorymodel.search.VectorGenerations;
import dev.hindsight.platform.work.BackgroundWork;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Vector generations (design.md § Re-embedding). Every replica reads, every {@code check-every}, how many memories
 * each model's vectors cover and so which model searches use ({@link SearchModel}). While the configured model's
 * generation is incomplete, the replica holding the keeper's lease embeds the memories it lacks, a batch at a time,
 * and publishes each vector as a MemoryEmbedded event (model output is an event: replay never embeds again); searches
 * keep using the previous model meanwhile, and switch once the new generation covers every memory. A while after the
 * switch ({@code retire-after}), the holder deletes the previous model's vectors.
 */
@Singleton
public class VectorKeeper extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(VectorKeeper.class);

    private static final String CLAIM = """
            INSERT INTO vector_keeper_lease AS l (holder, until) VALUES ($1, now() + $2 * interval '1 millisecond')
            ON CONFLICT (only_row) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
            WHERE l.holder = EXCLUDED.holder OR l.until < now()
            RETURNING holder""";
    private static final int RETIRE_BATCH = 5_000;

    private final VectorStore vectors;
    private final MemoryStore store;
    private final Provider<MemoryLog> log;
    private final Embeddings embeddings;
    private final Pool pool;
    private final MemoryConfig.Embedding config;
    private final Clock clock = Clock.systemUTC();
    private final SearchModel model;
    private final String holder = UUID.randomUUID().toString();
    private volatile Instant counted = Instant.EPOCH;
    private volatile UUID cursor;

    /** The log is looked up when first needed: start-up reads the counts before the Kafka channels exist. */
    public VectorKeeper(VectorStore vectors, MemoryStore store, Provider<MemoryLog> log, Embeddings embeddings, Pool pool,
            MemoryConfig config, Vertx vertx) {
        super(vertx, config.embedding().checkEvery(), "Keeping vector generations", true);
        this.vectors = vectors;
        this.store = store;
        this.log = log;
        this.embeddings = embeddings;
        this.pool = pool;
        this.config = config.embedding();
        this.model = new SearchModel(embeddings.preferred(), clock);
    }

    /** The model searches use now. */
    public String searchModel() {
        return model.current();
    }

    /** Re-reads the counts and decides which model searches use. */
    public Uni<SearchModel.State> refresh() {
        return vectors.countByModel().flatMap(byModel -> store.count().map(memories -> {
            String before = model.current();
            if (model.update(memories, byModel)) {
                LOG.infof("Searches now use embedding model %s instead of %s (%d memories; vectors per model: %s)",
                        model.current(), before, memories, byModel);
            }
            counted = clock.instant();
            return model.state();
        }));
    }

    @Override
    protected Uni<Boolean> oneRound() {
        Uni<SearchModel.State> state = cursor == null || counted.plus(config.checkEvery()).isBefore(clock.instant())
                ? refresh() : Uni.createFrom().item(model.state());
        return state.flatMap(now -> {
            boolean retire = model.mayRetireOthers(config.retireAfter());
            if (!now.building() && !retire) {
                return Uni.createFrom().item(false);
            }
            return claim().flatMap(held -> {
                if (!held) {
                    return Uni.createFrom().item(false);
                }
                return now.building() ? build() : retire();
            });
        });
    }

    private Uni<Boolean> claim() {
        return pool.preparedQuery(CLAIM).execute(Tuple.of(holder, config.checkEvery().multipliedBy(6).toMillis()))
                .map(rows -> rows.size() == 1);
    }

    /** One batch of the configured model's generation; true while the pass has more to look at. */
    private Uni<Boolean> build() {
        String target = model.preferred();
        return vectors.lacking(target, cursor, config.batchSize()).flatMap(ids -> {
            if (ids.isEmpty()) {
                // The pass is over: count now (so searches switch at once when it completed the generation); the
                // next round starts another pass if memories arrived meanwhile.
                cursor = null;
                return refresh().replaceWith(false);
            }
            cursor = ids.get(ids.size() - 1);
            return store.anyTenant(ids).flatMap(memories -> embedAll(target, memories))
                    .flatMap(events -> log.get().append(events).replaceWith(events.size()))
                    .invoke(n -> LOG.debugf("Embedded %d memories with %s", n, target))
                    .replaceWith(true);
        });
    }

    private Uni<List<MemoryEvent>> embedAll(String target, List<MemoryRow> memories) {
        List<Uni<Optional<MemoryEvent>>> each = new ArrayList<>(memories.size());
        for (MemoryRow memory : memories) {
            each.add(embeddings.embedInBackground(target, SearchRule.embeddingText(memory.title(), memory.description(),
                            memory.content()))
                    .map(vector -> Optional.of(embedded(memory, target, vector)))
                    .onFailure(NothingToEmbed.class).recoverWithItem(failure -> {
                        LOG.warnf("Model %s reads nothing in memory %s: it stays without a vector of that model",
                                target, memory.id());
                        return Optional.empty();
                    }));
        }
        return Uni.join().all(each).andFailFast()
                .map(events -> events.stream().flatMap(Optional::stream).toList());
    }

    private MemoryEvent embedded(MemoryRow memory, String target, float[] vector) {
        String version = VectorGenerations.textVersion(memory.description(), memory.content());
        UUID eventId = MemoryEvents.derivedId(memory.id().toString(), "embedded", target, version);
        return MemoryEvents.event(MemoryEvents.header(eventId, memory.tenant(), MemoryEvents.SERVICE_PRINCIPAL,
                        "re-embedding", clock), memory.project(), memory.id(),
                MemoryEmbedded.newBuilder().setEmbedding(MemoryEvents.embedding(target, vector))
                        .setTextMd5(version).build());
    }

    private Uni<Boolean> retire() {
        return vectors.retireOthers(model.current(), RETIRE_BATCH).flatMap(deleted -> {
            LOG.infof("Deleted %d vectors of models searches no longer use", deleted);
            return refresh().map(state -> deleted == RETIRE_BATCH);
        });
    }
}
