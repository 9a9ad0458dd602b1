package dev.hindsight.ingest.erasure;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.erasures.ErasureSelector;
import dev.hindsight.ingest.publish.IngestConfig;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.erasure.Eraser;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.erasure.ErasurePublisher;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.DataKeyScan;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * Accepts an erasure (ADR 0028): asks query-service what it covers (the read model knows whom a session is about,
 * which traces a conversation was assembled from, which messages carry decision sets), destroys every data key of
 * those sessions, messages and traces (and, for a person, the person's keys; for a tenant, all its keys), then
 * publishes the erasure on {@code hindsight.erasures.v1}, which every read model applies. The keys go first: once
 * the caller has the erasure's id, nothing it covers can be read from the log any more. Refused ids are refused on
 * this replica at once, on the others as they read the log.
 */
@ApplicationScoped
public class Erasures {

    private static final Logger LOG = Logger.getLogger(Erasures.class);
    /** Resolving, destroying and publishing: each bounded, so a caller is never left waiting. */
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration ERASE_TIMEOUT = Duration.ofSeconds(60);

    /** What query-service found. */
    record Scope(List<String> sessionIds, List<String> messageIds, List<String> traceIds, long sessions) {
    }

    private final Eraser eraser;
    private final Kms kms;
    private final ObjectMapper json;
    private final HttpClient http;
    private final RequestOptions target;
    /** Subjects and tenants being erased right now on this replica: a second request waits for the first's id. */
    private final Set<String> running = ConcurrentHashMap.newKeySet();

    public Erasures(ErasureLog log, ErasurePublisher publisher, DataKeyIssuer issuer, Kms kms, ObjectMapper json,
            IngestConfig config, Vertx vertx, @Identifier("default-kafka-broker") Map<String, Object> kafka,
            Config settings) {
        this.eraser = new Eraser(log, publisher, issuer, new DataKeyScan(kafka, settings), ERASE_TIMEOUT);
        this.kms = kms;
        this.json = json;
        URI base = config.conflictCheckUrl().orElse(null);
        if (base == null) {
            this.http = null;
            this.target = null;
            return;
        }
        boolean tls = "https".equalsIgnoreCase(base.getScheme());
        int port = base.getPort() > 0 ? base.getPort() : tls ? 443 : 80;
        this.http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setSsl(tls)
                .setConnectTimeout((int) ASK_TIMEOUT.toMillis()).setMaxPoolSize(2));
        this.target = new RequestOptions().setMethod(HttpMethod.POST).setHost(base.getHost()).setPort(port)
                .setSsl(tls).setURI(base.resolve("/v1/erasure-scope").getRawPath())
                .setTimeout(ASK_TIMEOUT.toMillis())
                .putHeader("Content-Type", "application/json");
    }

    @PreDestroy
    void close() {
        if (http != null) {
            http.close();
        }
    }

    /**
     * Erases what {@code request} names in {@code tenant}, asking query-service with the caller's
     * {@code authorization}; answered once the keys are destroyed and the erasure is on the log.
     */
    public Uni<ErasureLog.Erasure> erase(TenantId tenant, String principal, String authorization,
            ErasureRequest request) {
        if (http == null) {
            return Uni.createFrom().failure(new ProblemException(Problem.of(503, "Service unavailable",
                    "Erasure needs query-service (hindsight.ingest.conflict-check-url is not set); nothing was "
                            + "erased.")));
        }
        return resolve(authorization, request).chain(scope -> {
            if (!request.wholeTenant() && scope.sessionIds().isEmpty()) {
                return Uni.createFrom().failure(new ProblemException(Problem.of(404, "Not found",
                        request.subject() != null ? "No session of this tenant names this subject: nothing was erased."
                                : "None of these sessions is recorded in this tenant: nothing was erased.")));
            }
            return Uni.createFrom().item(() -> destroyAndPublish(tenant, principal, request, scope))
                    .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        });
    }

    /** Blocking: reads the key topic, waits for Kafka's acknowledgements. */
    private ErasureLog.Erasure destroyAndPublish(TenantId tenant, String principal, ErasureRequest request,
            Scope scope) {
        String guard = request.subjectOrTenant() ? tenant.value() + "\u0000"
                + (request.wholeTenant() ? "" : request.subject()) : UUID.randomUUID().toString();
        if (!running.add(guard)) {
            throw new ProblemException(Problem.of(409, "Conflict", "An erasure of the same subject or tenant is "
                    + "running: nothing more was erased. Retry in a moment."));
        }
        try {
            ErasureSelector selector = request.wholeTenant() ? ErasureSelector.TENANT
                    : request.subject() != null ? ErasureSelector.SUBJECT : ErasureSelector.SESSIONS;
            String selectorHash = request.subject() == null ? null : HexFormat.of().formatHex(kms.keyedHash(tenant,
                    ("subject:" + request.subject()).getBytes(StandardCharsets.UTF_8)));
            ErasureLog.Erasure erasure = eraser.erase(tenant, principal, selector, selectorHash,
                    new Eraser.Covered(scope.sessionIds(), scope.messageIds(), scope.traceIds()));
            LOG.infof("Erasure %s of tenant %s accepted: %d session(s), %d key(s) destroyed", erasure.id(),
                    tenant.value(), scope.sessionIds().size(), erasure.destroyedKeys().size());
            return erasure;
        } finally {
            running.remove(guard);
        }
    }

    private Uni<Scope> resolve(String authorization, ErasureRequest request) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(request.forQuery());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        RequestOptions ask = new RequestOptions(target).putHeader("Authorization", authorization);
        return Uni.createFrom().completionStage(() -> http.request(ask)
                        .compose(sent -> sent.send(Buffer.buffer(body)))
                        .compose(response -> response.body().map(bytes -> {
                            if (response.statusCode() != 200) {
                                throw new IllegalStateException("query-service answered " + response.statusCode());
                            }
                            return bytes;
                        }))
                        .toCompletionStage())
                .map(bytes -> {
                    try {
                        return json.readValue(bytes.getBytes(), Scope.class);
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException("unreadable answer from query-service", e);
                    }
                })
                .onFailure(failure -> !(failure instanceof ProblemException)).transform(failure -> {
                    LOG.warnf("Erasure scope unanswered: %s", failure.toString());
                    return new ProblemException(Problem.of(503, "Service unavailable", "query-service did not say "
                            + "what the erasure covers; nothing was erased. Retry later."), Map.of("Retry-After", "5"));
                });
    }
}
