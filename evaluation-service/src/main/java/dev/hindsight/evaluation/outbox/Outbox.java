package dev.hindsight.evaluation.outbox;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.platform.kafka.EnvelopeDatumProvider;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecordBase;
import org.eclipse.microprofile.config.Config;

/**
 * Writes the events evaluation-service decided into its outbox table, on the caller's transaction, so that an event
 * exists if and only if the state change that decided it committed. {@link OutboxRelay} publishes them. An erasure
 * deletes the ones of its sessions and messages that are not published yet (ADR 0028).
 */
@ApplicationScoped
public class Outbox {

    private static final String INSERT = """
            INSERT INTO outbox (tenant_id, topic, record_key, event_id, envelope) VALUES ($1, $2, $3, $4, $5)""";
    // Rows the relay holds are being sent: these wait for it and then find them gone (consumers drop those events
    // by the erasure log).
    private static final String ERASE_KEYS = "DELETE FROM outbox WHERE tenant_id = $1 AND record_key = ANY($2)";
    private static final String ERASE_TENANT = "DELETE FROM outbox WHERE tenant_id = $1";
    // Rows of the previous version, which did not name their tenant (V2__erasures.sql): their envelope does.
    private static final String UNNAMED = """
            SELECT id, topic, record_key, envelope FROM outbox /* every tenant: rows that do not name theirs */
            WHERE tenant_id IS NULL FOR UPDATE""";
    private static final String ERASE_UNNAMED = """
            DELETE FROM outbox /* every tenant: rows whose envelope names the erased one */
            WHERE id = ANY($1) AND tenant_id IS NULL""";

    private final Config config;
    /** This service's topics by their configured names, to read an unnamed row's envelope. */
    private final Map<String, HindsightTopic> topics = new HashMap<>();

    public Outbox(Config config) {
        this.config = config;
        for (HindsightTopic topic : HindsightTopic.writtenBy("evaluation-service")) {
            topics.put(OwnedTopics.name(config, topic), topic);
        }
    }

    /** An event to publish on one of evaluation-service's topics. */
    public record Event(HindsightTopic topic, String key, UUID eventId, SpecificRecordBase envelope) {
    }

    /** Adds {@code events} on {@code tx}, in order. */
    public Uni<Void> add(SqlClient tx, List<Event> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> rows = new ArrayList<>(events.size());
        for (Event event : events) {
            rows.add(Tuple.of(tenantOf(event.envelope()), OwnedTopics.name(config, event.topic()), event.key(),
                    event.eventId(), io.vertx.core.buffer.Buffer.buffer(encode(event.envelope()))));
        }
        return tx.preparedQuery(INSERT).executeBatch(rows).replaceWithVoid();
    }

    /**
     * Deletes, on {@code tx}, the events of {@code tenant} under record keys {@code keys} (its sessions' insights,
     * its messages' evaluations) that are not published yet; completes with how many.
     */
    public Uni<Long> erase(SqlClient tx, TenantId tenant, Set<String> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(0L);
        }
        return tx.preparedQuery(ERASE_KEYS).execute(Tuple.of(tenant.value(), keys.toArray(String[]::new)))
                .chain(named -> eraseUnnamed(tx, tenant, keys::contains).map(n -> named.rowCount() + n));
    }

    /** Deletes, on {@code tx}, every event of {@code tenant} not published yet; completes with how many. */
    public Uni<Long> eraseTenant(SqlClient tx, TenantId tenant) {
        return tx.preparedQuery(ERASE_TENANT).execute(Tuple.of(tenant.value()))
                .chain(named -> eraseUnnamed(tx, tenant, key -> true).map(n -> named.rowCount() + n));
    }

    private Uni<Long> eraseUnnamed(SqlClient tx, TenantId tenant, Predicate<String> key) {
        return tx.preparedQuery(UNNAMED).execute().chain(rows -> {
            List<Long> ids = new ArrayList<>();
            for (Row row : rows) {
                HindsightTopic topic = topics.get(row.getString("topic"));
                if (topic != null && key.test(row.getString("record_key")) && tenant.value().equals(
                        tenantOf(decode(topic, row.getBuffer("envelope").getBytes())))) {
                    ids.add(row.getLong("id"));
                }
            }
            return ids.isEmpty() ? Uni.createFrom().item(0L)
                    : tx.preparedQuery(ERASE_UNNAMED).execute(Tuple.of(ids.toArray(Long[]::new)))
                            .map(deleted -> (long) deleted.rowCount());
        });
    }

    /** The tenant an envelope's header names: every envelope this service writes has one. */
    private static String tenantOf(SpecificRecordBase envelope) {
        return envelope.getSchema().getField("header") != null
                && envelope.get("header") instanceof EventHeader header ? header.getTenantId() : null;
    }

    static byte[] encode(SpecificRecordBase envelope) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
            SpecificDatumWriter<SpecificRecordBase> writer = new SpecificDatumWriter<>(envelope.getSchema(),
                    EnvelopeDatumProvider.model(envelope.getClass()));
            writer.write(envelope, encoder);
            encoder.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static SpecificRecordBase decode(HindsightTopic topic, byte[] bytes) {
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
            SpecificDatumReader<SpecificRecordBase> reader = new SpecificDatumReader<>(topic.valueSchema(),
                    topic.valueSchema(), EnvelopeDatumProvider.model(topic.valueType()));
            return reader.read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
