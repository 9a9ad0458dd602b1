package dev.hindsight.query.session;

import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.platform.consumer.ProcessedEvents;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Projects {@code hindsight.reasoning.v1} into the session read model. Each event is applied in one database
 * transaction together with its event id in the ledger; the offset is acknowledged only when the returned
 * {@code Uni} completes, i.e. after the commit. A redelivered event finds its id taken and changes nothing.
 * Failures are retried with back-off, then the event goes to {@code hindsight.query.reasoning.dlq} and the partition moves on.
 */
@ApplicationScoped
public class SessionProjection {

    static final String CONSUMER = "query.sessions";
    private static final Logger LOG = Logger.getLogger(SessionProjection.class);

    private final Pool pool;
    private final SessionRepository sessions;

    public SessionProjection(Pool pool, SessionRepository sessions) {
        this.pool = pool;
        this.sessions = sessions;
    }

    @Incoming("reasoning")
    public Uni<Void> project(ConsumerRecord<String, Object> record) {
        if (!(record.value() instanceof ReasoningEvent event)) {
            // The deserializer could not read it (no schema, corrupt bytes): dead-letter it, never retry.
            String where = record.topic() + "-" + record.partition() + "@" + record.offset();
            LOG.warnf("Dead-lettering unreadable event at %s (value: %s)", where,
                    record.value() == null ? "null" : record.value().getClass().getName());
            return Uni.createFrom().failure(new IllegalArgumentException("Unreadable event at " + where));
        }
        UUID eventId = event.getHeader().getEventId();
        return pool.withTransaction(tx -> ProcessedEvents.claim(tx, CONSUMER, eventId, event.getHeader().getTenantId())
                        .flatMap(first -> first ? apply(tx, event) : Uni.createFrom().voidItem()))
                .onFailure().invoke(e -> LOG.warnf("Projecting event %s failed: %s", eventId, e.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(100), Duration.ofSeconds(2)).atMost(3);
    }

    private Uni<Void> apply(SqlClient tx, ReasoningEvent event) {
        String tenant = event.getHeader().getTenantId();
        String sessionId = event.getSessionId();
        var at = event.getHeader().getRecordedAt();
        Object payload = event.getPayload();
        if (payload instanceof SessionStarted started) {
            return sessions.sessionStarted(tx, tenant, sessionId, started, at);
        }
        if (payload instanceof MessageRecorded message) {
            return sessions.messageRecorded(tx, tenant, sessionId, message,
                    event.getHeader().getEventId().toString(), at);
        }
        if (payload instanceof SessionCompleted completed) {
            return sessions.sessionCompleted(tx, tenant, sessionId, completed, at);
        }
        // Positions and activities are projected by their own read models (issue #4); recorded as seen here.
        return Uni.createFrom().voidItem();
    }
}
