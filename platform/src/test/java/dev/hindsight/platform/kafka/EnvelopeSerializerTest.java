package dev.hindsight.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import io.apicurio.registry.resolver.ParsedSchema;
import io.apicurio.registry.resolver.ParsedSchemaImpl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * The buffered encoding of {@link EnvelopeSerializer} writes exactly what Apicurio's Avro serializer writes (Avro's
 * direct binary encoder), for records smaller and larger than the encoder's buffer, one after another on the same
 * thread (the encoder is reused), and after a record that failed half-way.
 */
class EnvelopeSerializerTest {

    private final EnvelopeSerializer.BufferedAvroSerializer<ReasoningEvent> serializer =
            new EnvelopeSerializer.BufferedAvroSerializer<>();
    private final ParsedSchema<Schema> schema =
            new ParsedSchemaImpl<Schema>().setParsedSchema(ReasoningEvent.getClassSchema());

    @Test
    void writesTheBytesOfAvrosDirectEncoderForSmallAndLargeRecordsInTurn() throws IOException {
        for (ReasoningEvent event : new ReasoningEvent[] {started("s-1"), message("s-1", 0, "hi"),
                message("s-1", 1, "x".repeat(100_000)), message("s-1", 2, "é ü 漢字 🙂"), started("s-2")}) {
            byte[] ours = buffered(event);
            assertThat(ours).isEqualTo(direct(event));
            assertThat(new EnvelopeDatumProvider<ReasoningEvent>().createDatumReader(ReasoningEvent.getClassSchema())
                    .read(null, DecoderFactory.get().binaryDecoder(ours, null))).isEqualTo(event);
        }
    }

    @Test
    void aRecordThatFailsHalfWayLeavesNothingBehindForTheNext() throws IOException {
        ReasoningEvent broken = message("s-1", 0, "before the failure");
        // Built, then broken: the writer fails on the null content after writing the header and session.
        ((MessageRecorded) broken.getPayload()).setContent(null);
        assertThatThrownBy(() -> buffered(broken)).isInstanceOf(NullPointerException.class);

        ReasoningEvent next = message("s-2", 3, "after");
        assertThat(buffered(next)).isEqualTo(direct(next));
    }

    private byte[] buffered(ReasoningEvent event) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        serializer.serializeData(schema, event, out);
        return out.toByteArray();
    }

    private static byte[] direct(ReasoningEvent event) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new SpecificDatumWriter<ReasoningEvent>(ReasoningEvent.getClassSchema(),
                EnvelopeDatumProvider.model(ReasoningEvent.class)).write(event, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static EventHeader header() {
        Instant at = Instant.parse("2025-10-02T10:00:00Z");
        return EventHeader.newBuilder().setEventId(UUID.randomUUID()).setTenantId("t").setOccurredAt(at)
                .setRecordedAt(at).setProducer(ProducerIdentity.newBuilder().setPrincipal("p").build()).build();
    }

    private static ReasoningEvent started(String session) {
        return ReasoningEvent.newBuilder().setHeader(header()).setSessionId(session)
                .setPayload(SessionStarted.newBuilder().setKind(SessionKind.CHAT)
                        .setStartedAt(Instant.parse("2025-10-02T10:00:00Z")).build())
                .build();
    }

    private static ReasoningEvent message(String session, int index, String content) {
        return ReasoningEvent.newBuilder().setHeader(header()).setSessionId(session)
                .setPayload(MessageRecorded.newBuilder().setMessageIndex(index).setRole(MessageRole.USER)
                        .setContent(content).setTimestamp(Instant.parse("2025-10-02T10:00:01Z")).build())
                .build();
    }
}
