package dev.hindsight.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class EnvelopeDatumProviderTest {

    private final EnvelopeDatumProvider<ReasoningEvent> provider = new EnvelopeDatumProvider<>();

    @Test
    void aWriterSchemaGetsOneReaderThatDecodesEveryRecordAsTheCompiledClass() throws IOException {
        Schema writer = new Schema.Parser().parse(ReasoningEvent.getClassSchema().toString());
        DatumReader<ReasoningEvent> first = provider.createDatumReader(writer);

        ReasoningEvent one = event("session-1");
        ReasoningEvent two = event("session-2");
        assertThat(first.read(null, DecoderFactory.get().binaryDecoder(encode(one), null))).isEqualTo(one);
        assertThat(provider.createDatumReader(writer)).isSameAs(first);
        assertThat(provider.createDatumReader(writer).read(null, DecoderFactory.get().binaryDecoder(encode(two), null)))
                .isEqualTo(two);
    }

    @Test
    void anotherSchemaInstanceGetsItsOwnReaderAndTheCacheStaysBounded() {
        DatumReader<ReasoningEvent> first = provider.createDatumReader(ReasoningEvent.getClassSchema());
        Schema copy = new Schema.Parser().parse(ReasoningEvent.getClassSchema().toString());
        assertThat(provider.createDatumReader(copy)).isNotSameAs(first);
        for (int i = 0; i < 1_000; i++) {
            provider.createDatumReader(new Schema.Parser().parse(ReasoningEvent.getClassSchema().toString()));
        }
        // Evicted when full: a fresh instance for the first schema, not an ever-growing map.
        assertThat(provider.createDatumReader(ReasoningEvent.getClassSchema())).isNotSameAs(first);
    }

    private byte[] encode(ReasoningEvent event) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        provider.createDatumWriter(event, ReasoningEvent.getClassSchema()).write(event, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static ReasoningEvent event(String session) {
        Instant at = Instant.parse("2025-10-02T10:00:00Z");
        return ReasoningEvent.newBuilder()
                .setHeader(EventHeader.newBuilder().setEventId(UUID.randomUUID()).setTenantId("t").setOccurredAt(at)
                        .setRecordedAt(at).setProducer(ProducerIdentity.newBuilder().setPrincipal("p").build()).build())
                .setSessionId(session)
                .setPayload(SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(at).build()).build();
    }
}
