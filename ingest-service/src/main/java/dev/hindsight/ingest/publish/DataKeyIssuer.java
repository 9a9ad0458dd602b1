package dev.hindsight.ingest.publish;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.datakeys.DataKeyCreated;
import dev.hindsight.events.datakeys.DataKeyDestroyed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.datakeys.DataKeyScope;
import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.kafka.EventHeaders;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Makes data keys and destroys them, on {@code hindsight.datakeys.v1} (ADR 0027): a key is answered only once Kafka
 * acknowledged it, so nothing is ever sealed under a key that is not durable; its destruction is a kept marker.
 */
@ApplicationScoped
public class DataKeyIssuer {

    private static final String PRINCIPAL = "hindsight-ingest";

    private final EventLog log;
    private final Kms kms;
    private final Clock clock = Clock.systemUTC();

    public DataKeyIssuer(EventLog log, Kms kms) {
        this.log = log;
        this.kms = kms;
    }

    /**
     * A new key of {@code tenant} for {@code scope} and what it seals ({@code owner}: the record key of its events),
     * wrapped by {@code parent} (a subject's key) or, when it is null, by the tenant's current KEK; answered once it
     * is durable.
     */
    public Uni<DataKeys.DataKey> issue(TenantId tenant, DataKeys.Scope scope, String owner, DataKeys.DataKey parent) {
        int version = kms.currentVersion();
        DataKeys.Created created = DataKeys.create(tenant, scope, parent == null
                ? kms.keyEncryptionKey(tenant, version) : parent.aead());
        DataKeyCreated payload = DataKeyCreated.newBuilder()
                .setScope(DataKeyScope.valueOf(scope.name()))
                .setOwner(owner)
                .setParentKeyId(parent == null ? null : parent.keyId())
                .setKekVersion(parent == null ? version : null)
                .setWrapped(ByteBuffer.wrap(created.wrapped().wrapped()))
                .build();
        return publish(tenant, created.key().keyId(), payload).replaceWith(created.key());
    }

    /** Destroys the key: everything sealed under it, and under every key it wraps, is erased. */
    public Uni<Void> destroy(TenantId tenant, String keyId, ErasureReason reason) {
        return publish(tenant, keyId, DataKeyDestroyed.newBuilder().setReason(reason).build()).replaceWithVoid();
    }

    private Uni<?> publish(TenantId tenant, String keyId, Object payload) {
        UUID eventId = UUID.randomUUID();
        EventHeader header = EventHeaders.create(eventId, tenant, PRINCIPAL, null, Instant.now(clock), clock);
        DataKeyEvent event = DataKeyEvent.newBuilder().setHeader(header).setKeyId(keyId).setPayload(payload).build();
        return log.dataKeys(List.of(new Outgoing<>(keyId, event, eventId.toString())));
    }
}
