package dev.hindsight.evaluation.outbox;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.platform.kafka.EnvelopeDatumProvider;
import dev.hindsight.platform.kafka.OwnedTopics;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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
 * exists if and only if the state change that decided it committed. {@link OutboxRelay} publishes them.
 */
@ApplicationScoped
public class Outbox {

    private static final String INSERT = "INSERT INTO outbox (topic, record_key, event_id, envelope) VALUES ($1, $2, $3, $4)";

    private final Config config;

    public Outbox(Config config) {
        this.config = config;
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
            rows.add(Tuple.of(OwnedTopics.name(config, event.topic()), event.key(), event.eventId(),
                    io.vertx.core.buffer.Buffer.buffer(encode(event.envelope()))));
        }
        return tx.preparedQuery(INSERT).executeBatch(rows).replaceWithVoid();
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
