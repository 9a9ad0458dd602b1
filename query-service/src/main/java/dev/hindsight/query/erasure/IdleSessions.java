package dev.hindsight.query.erasure;

import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.erasures.ErasureSelector;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.erasure.Eraser;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.erasure.ErasurePublisher;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.DataKeyScan;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.platform.work.BackgroundWork;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

/**
 * Retention of sessions (ADR 0029): a session idle longer than its tenant's retention age (no event for that long, by
 * event time) is erased as a tenant would erase it (ADR 0028): the data keys of the session, of its messages' decision
 * sets and signals and of its traces destroyed, so the log keeps only ciphertext nobody can read, then an erasure with
 * selector {@code RETENTION} published, which every read model applies. Runs every
 * {@code hindsight.query.retention.sessions-every} (by default the retention interval), at most {@link #CHUNK}
 * sessions per tenant and round (a round with more is followed at once), on one replica at a time (an advisory lock).
 */
@Singleton
public class IdleSessions extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(IdleSessions.class);
    static final String PRINCIPAL = "hindsight-query:retention";
    static final int CHUNK = 500;
    private static final String PREFIX = "hindsight.query.retention.sessions-by-tenant.";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long LOCK = 0x6869_6e64_7369_6701L;

    private static final String IDLE_OF_TENANT = """
            SELECT session_id FROM {rm}.session WHERE tenant_id = $1 AND last_event_at < now() - make_interval(secs => $2)
            ORDER BY last_event_at LIMIT $3""";
    private static final String IDLE_OF_OTHERS = """
            SELECT tenant_id, session_id FROM {rm}.session /* every tenant without an age of its own */
            WHERE last_event_at < now() - make_interval(secs => $1) AND NOT (tenant_id = ANY($2))
            ORDER BY last_event_at LIMIT $3""";

    private final Pool pool;
    private final Generations generations;
    private final ErasureScopes scopes;
    private final ErasureLog log;
    private final Eraser eraser;
    private final Optional<Duration> defaultAge;
    private final Map<String, Duration> tenantAges;

    IdleSessions(Pool pool, Vertx vertx, Generations generations, ErasureScopes scopes, ErasureLog log,
            ErasurePublisher publisher, Kms kms, KafkaClientService kafka, Config config,
            @Identifier("default-kafka-broker") Map<String, Object> kafkaSettings,
            @Channel(DataKeyIssuer.CHANNEL) MutinyEmitter<DataKeyEvent> dataKeys) {
        super(vertx, config.getOptionalValue("hindsight.query.retention.sessions-every", Duration.class)
                .or(() -> config.getOptionalValue("hindsight.query.retention.interval", Duration.class))
                .orElse(Duration.ofHours(1)), "Erasing idle sessions", false);
        this.pool = pool;
        this.generations = generations;
        this.scopes = scopes;
        this.log = log;
        this.eraser = new Eraser(log, publisher, DataKeyIssuer.onChannel(kms, PRINCIPAL, kafka, config, TIMEOUT),
                new DataKeyScan(kafkaSettings, config), TIMEOUT);
        this.defaultAge = config.getOptionalValue("hindsight.query.retention.sessions", Duration.class);
        Map<String, Duration> ages = new TreeMap<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(PREFIX)) {
                ages.put(name.substring(PREFIX.length()), config.getValue(name, Duration.class));
            }
        }
        this.tenantAges = Map.copyOf(ages);
    }

    @Override
    protected Uni<Boolean> oneRound() {
        return expire().map(erased -> erased >= CHUNK);
    }

    /**
     * One round: erases the idle sessions of every tenant with a retention age, up to {@link #CHUNK} per tenant;
     * completes with how many sessions were erased (0 when another replica holds the round).
     */
    public Uni<Integer> expire() {
        if (defaultAge.isEmpty() && tenantAges.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return pool.withConnection(connection -> connection.preparedQuery("SELECT pg_try_advisory_lock($1)")
                .execute(Tuple.of(LOCK)).chain(locked -> {
                    if (!locked.iterator().next().getBoolean(0)) {
                        return Uni.createFrom().item(0);
                    }
                    return generations.current().chain(this::idle).chain(this::eraseAll)
                            .eventually(() -> connection.preparedQuery("SELECT pg_advisory_unlock($1)")
                                    .execute(Tuple.of(LOCK)));
                }));
    }

    /** Per tenant, its idle sessions not erased yet. */
    private Uni<Map<TenantId, List<String>>> idle(ReadModel model) {
        Map<TenantId, List<String>> idle = new LinkedHashMap<>();
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Map.Entry<String, Duration> tenant : tenantAges.entrySet()) {
            chain = chain.chain(() -> pool.preparedQuery(model.sql(IDLE_OF_TENANT))
                    .execute(Tuple.of(tenant.getKey(), (double) tenant.getValue().toSeconds(), CHUNK))
                    .invoke(rows -> rows.forEach(row -> add(idle, TenantId.of(tenant.getKey()), row.getString(0))))
                    .replaceWithVoid());
        }
        if (defaultAge.isPresent()) {
            chain = chain.chain(() -> pool.preparedQuery(model.sql(IDLE_OF_OTHERS))
                    .execute(Tuple.of((double) defaultAge.get().toSeconds(),
                            tenantAges.keySet().toArray(String[]::new), CHUNK))
                    .invoke(rows -> {
                        for (Row row : rows) {
                            add(idle, TenantId.of(row.getString(0)), row.getString(1));
                        }
                    }).replaceWithVoid());
        }
        return chain.replaceWith(idle);
    }

    private void add(Map<TenantId, List<String>> idle, TenantId tenant, String session) {
        // Erased already, its read-model rows not deleted yet: not erased twice.
        if (!log.erased(tenant, session)) {
            idle.computeIfAbsent(tenant, t -> new ArrayList<>()).add(session);
        }
    }

    private Uni<Integer> eraseAll(Map<TenantId, List<String>> idle) {
        Uni<Integer> total = Uni.createFrom().item(0);
        for (Map.Entry<TenantId, List<String>> tenant : idle.entrySet()) {
            TenantId id = tenant.getKey();
            total = total.chain(sofar -> scopes.resolve(id,
                            new ErasureScopeResource.Selector(tenant.getValue(), null, null))
                    .chain(scope -> Uni.createFrom().item(() -> eraser.erase(id, PRINCIPAL, ErasureSelector.RETENTION,
                                    null, new Eraser.Covered(scope.sessionIds(), scope.messageIds(), scope.traceIds())))
                            .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()))
                    .map(erasure -> {
                        LOG.infof("Retention erased %d idle session(s) of tenant %s (erasure %s, %d key(s) destroyed)",
                                erasure.sessionIds().size(), id.value(), erasure.id(), erasure.destroyedKeys().size());
                        return sofar + erasure.sessionIds().size();
                    }));
        }
        return total;
    }
}
