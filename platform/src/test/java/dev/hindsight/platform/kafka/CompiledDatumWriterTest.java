package dev.hindsight.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

/**
 * {@link CompiledDatumWriter} writes exactly the bytes of Avro's {@link SpecificDatumWriter}, for random records of
 * every envelope schema: every union branch taken, empty and non-empty arrays and maps, absent optional fields, text
 * outside ASCII and the edges of numbers. A record with a null where the schema allows none fails as Avro's does.
 */
class CompiledDatumWriterTest {

    private static final int RECORDS_PER_TOPIC = 2_000;

    @Test
    void writesWhatAvrosSpecificWriterWritesForRandomRecordsOfEveryEnvelope() throws IOException {
        for (HindsightTopic topic : HindsightTopic.values()) {
            Random random = new Random(topic.ordinal() * 7919L);
            Schema schema = topic.valueSchema();
            SpecificData model = EnvelopeDatumProvider.model(topic.valueType());
            Generator generator = new Generator(model, random);
            DatumWriter<Object> compiled = new CompiledDatumWriter<>(schema, model);
            DatumWriter<Object> avro = new SpecificDatumWriter<>(schema, model);
            Set<String> payloads = new HashSet<>();
            for (int i = 0; i < RECORDS_PER_TOPIC; i++) {
                Object record = generator.value(schema);
                payloads.add(((IndexedRecord) record).get(schema.getField("payload").pos()).getClass().getSimpleName());
                byte[] ours = bytes(compiled, record);
                assertThat(ours).as("%s record %d: %s", topic, i, record).isEqualTo(bytes(avro, record));
                assertThat(new EnvelopeDatumProvider<>().createDatumReader(schema)
                        .read(null, DecoderFactory.get().binaryDecoder(ours, null))).isEqualTo(record);
            }
            // Every payload type of the envelope was written, not just the first branch.
            assertThat(payloads).as(topic.name())
                    .hasSize(schema.getField("payload").schema().getTypes().size());
        }
    }

    @Test
    void aNullWhereTheSchemaAllowsNoneFailsNamingTheField() {
        Schema schema = ReasoningEvent.getClassSchema();
        SpecificData model = EnvelopeDatumProvider.model(ReasoningEvent.class);
        ReasoningEvent event;
        do {
            event = (ReasoningEvent) new Generator(model, new Random()).value(schema);
        } while (!(event.getPayload() instanceof MessageRecorded));
        ((MessageRecorded) event.getPayload()).setContent(null);
        ReasoningEvent broken = event;

        assertThatThrownBy(() -> bytes(new SpecificDatumWriter<>(schema, model), broken))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> bytes(new CompiledDatumWriter<>(schema, model), broken))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("MessageRecorded.content");
    }

    @Test
    void aUuidIsWrittenAsItsCanonicalText() throws IOException {
        Schema schema = ReasoningEvent.getClassSchema();
        SpecificData model = EnvelopeDatumProvider.model(ReasoningEvent.class);
        ReasoningEvent event = (ReasoningEvent) new Generator(model, new Random(1)).value(schema);
        for (UUID id : List.of(new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 1),
                UUID.fromString("00000000-0000-000f-f000-000000000000"), UUID.randomUUID())) {
            event.getHeader().setEventId(id);
            assertThat(bytes(new CompiledDatumWriter<>(schema, model), event))
                    .isEqualTo(bytes(new SpecificDatumWriter<>(schema, model), event));
        }
    }

    private static byte[] bytes(DatumWriter<?> writer, Object record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        @SuppressWarnings("unchecked")
        DatumWriter<Object> w = (DatumWriter<Object>) writer;
        w.write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    /** Random values of a schema, as the generated classes hold them (logical types converted). */
    private record Generator(SpecificData model, Random random) {

        private static final String[] TEXT = {"", "a", "hello", "é ü 漢字 🙂", "x".repeat(300), "{\"k\": [1, 2]}"};

        Object value(Schema schema) {
            LogicalType logicalType = schema.getLogicalType();
            if (logicalType != null && model.getConversionFor(logicalType) != null) {
                switch (logicalType.getName()) {
                    case "uuid":
                        return new UUID(random.nextLong(), random.nextLong());
                    case "timestamp-millis":
                        return Instant.ofEpochMilli(random.nextBoolean() ? random.nextLong() >> 20
                                : random.nextInt(3) - 1);
                    case "date":
                        return LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000);
                    default:
                        throw new IllegalStateException("a logical type the envelopes do not use: " + logicalType);
                }
            }
            return switch (schema.getType()) {
                case RECORD -> {
                    SpecificRecordBase record = (SpecificRecordBase) model.newRecord(null, schema);
                    for (Schema.Field field : schema.getFields()) {
                        record.put(field.pos(), value(field.schema()));
                    }
                    yield record;
                }
                case UNION -> value(schema.getTypes().get(random.nextInt(schema.getTypes().size())));
                case ARRAY -> {
                    List<Object> items = new ArrayList<>();
                    for (int i = random.nextInt(4) == 0 ? 0 : random.nextInt(6); i > 0; i--) {
                        items.add(value(schema.getElementType()));
                    }
                    yield items;
                }
                case MAP -> {
                    Map<String, Object> entries = new HashMap<>();
                    for (int i = random.nextInt(4); i > 0; i--) {
                        entries.put(text() + i, value(schema.getValueType()));
                    }
                    yield entries;
                }
                case ENUM -> model.createEnum(schema.getEnumSymbols().get(random.nextInt(schema.getEnumSymbols().size())),
                        schema);
                case STRING -> text();
                case INT -> switch (random.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE;
                    default -> random.nextInt();
                };
                case LONG -> random.nextBoolean() ? random.nextLong() : (long) random.nextInt(200) - 100;
                case DOUBLE -> switch (random.nextInt(4)) {
                    case 0 -> -0.0;
                    case 1 -> Double.MAX_VALUE;
                    default -> random.nextGaussian() * 1e6;
                };
                case FLOAT -> random.nextFloat() - 0.5f;
                case BOOLEAN -> random.nextBoolean();
                case BYTES -> {
                    byte[] bytes = new byte[random.nextInt(4) == 0 ? 0 : random.nextInt(80)];
                    random.nextBytes(bytes);
                    yield java.nio.ByteBuffer.wrap(bytes);
                }
                case NULL -> null;
                default -> throw new IllegalStateException("a type the envelopes do not use: " + schema);
            };
        }

        private String text() {
            return random.nextInt(3) == 0 ? UUID.randomUUID().toString() : TEXT[random.nextInt(TEXT.length)];
        }
    }
}
