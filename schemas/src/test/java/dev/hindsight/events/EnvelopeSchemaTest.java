package dev.hindsight.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.StepType;
import dev.hindsight.events.reasoning.ThinkingStep;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

class EnvelopeSchemaTest {

    @Test
    void everyEnvelopeCarriesTheHeaderAndAPayloadUnion() {
        for (HindsightTopic topic : HindsightTopic.values()) {
            Schema schema = topic.valueSchema();
            assertThat(schema.getField("header").schema().getFullName())
                    .as(topic.name()).isEqualTo("dev.hindsight.events.EventHeader");
            assertThat(schema.getField("payload").schema().getType())
                    .as(topic.name()).isEqualTo(Schema.Type.UNION);
        }
    }

    @Test
    void headerHasTheFieldsEveryConsumerReliesOn() {
        assertThat(EventHeader.getClassSchema().getFields()).extracting(Schema.Field::name)
                .containsExactly("event_id", "tenant_id", "occurred_at", "recorded_at", "producer");
    }

    @Test
    void reasoningPayloadUnionHoldsEveryReasoningEvent() {
        assertThat(ReasoningEvent.getClassSchema().getField("payload").schema().getTypes())
                .extracting(Schema::getName)
                .containsExactly("SessionStarted", "MessageRecorded", "PositionRecorded", "ActivityRecorded",
                        "SessionCompleted", "Sealed");
    }

    @Test
    void everyTopicOfWhatPeopleWroteCanCarryASealedPayloadAndNamesItsRecordKey() {
        for (HindsightTopic topic : HindsightTopic.values()) {
            boolean sealable = topic.valueSchema().getField("payload").schema().getTypes().stream()
                    .anyMatch(s -> s.getFullName().equals(Sealed.class.getName()));
            assertThat(sealable).as(topic.name()).isEqualTo(topic.sealed());
        }
        ReasoningEvent event = new ReasoningEvent();
        event.setSessionId("s-1");
        assertThat(HindsightTopic.REASONING.recordKey(event)).isEqualTo("s-1");
        dev.hindsight.events.memory.MemoryEvent purge = new dev.hindsight.events.memory.MemoryEvent();
        purge.setProjectId("p-1");
        assertThat(HindsightTopic.MEMORY.recordKey(purge)).isEqualTo("project:p-1");
        purge.setMemoryId("m-1");
        assertThat(HindsightTopic.MEMORY.recordKey(purge)).isEqualTo("m-1");
    }

    @Test
    void decisionsAndSignalsAreKeyedAlikeSoTheyMeetOnOnePartition() {
        assertThat(HindsightTopic.DECISIONS.key()).isEqualTo(HindsightTopic.SIGNALS.key());
        assertThat(HindsightTopic.DECISIONS.valueSchema().getField("message_id")).isNotNull();
        assertThat(HindsightTopic.SIGNALS.valueSchema().getField("message_id")).isNotNull();
    }

    @Test
    void everyTopicHasOneWriterButTheKeysAndEvaluationsMeetDecisionsOnTheirPartition() {
        assertThat(HindsightTopic.writtenBy("ingest-service"))
                .containsExactly(HindsightTopic.REASONING, HindsightTopic.DECISIONS, HindsightTopic.SIGNALS,
                        HindsightTopic.KEYS, HindsightTopic.SPANS, HindsightTopic.DATA_KEYS,
                        HindsightTopic.ERASURES);
        assertThat(HindsightTopic.writtenBy("evaluation-service")).containsExactly(HindsightTopic.INSIGHTS,
                HindsightTopic.EVALUATIONS, HindsightTopic.DATA_KEYS, HindsightTopic.ERASURES);
        assertThat(HindsightTopic.writtenBy("memory-service"))
                .containsExactly(HindsightTopic.MEMORY, HindsightTopic.DATA_KEYS, HindsightTopic.ERASURES);
        assertThat(HindsightTopic.writtenBy("query-service")).containsExactly(HindsightTopic.DATA_KEYS,
                HindsightTopic.ERASURES);
        for (HindsightTopic topic : HindsightTopic.values()) {
            assertThat(topic.writers()).as(topic.name())
                    .isEqualTo(switch (topic) {
                        case DATA_KEYS -> java.util.List.of("ingest-service", "evaluation-service", "memory-service",
                                "query-service");
                        case ERASURES -> java.util.List.of("ingest-service", "query-service", "evaluation-service",
                                "memory-service");
                        default -> java.util.List.of(topic.writer());
                    });
        }
        assertThat(HindsightTopic.EVALUATIONS.key()).isEqualTo(HindsightTopic.DECISIONS.key());
        assertThat(HindsightTopic.INSIGHTS.key()).isEqualTo(HindsightTopic.REASONING.key());
    }

    @Test
    void messageWithOrderedThinkingStepsSurvivesBinaryRoundTrip() throws IOException {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ReasoningEvent event = ReasoningEvent.newBuilder()
                .setHeader(EventHeader.newBuilder()
                        .setEventId(UUID.randomUUID())
                        .setTenantId("acme")
                        .setOccurredAt(now)
                        .setRecordedAt(now)
                        .setProducer(ProducerIdentity.newBuilder().setPrincipal("key-1").build())
                        .build())
                .setSessionId("s-1")
                .setPayload(MessageRecorded.newBuilder()
                        .setMessageIndex(1)
                        .setRole(MessageRole.ASSISTANT)
                        .setContent("Bought NVDA.")
                        .setTimestamp(now)
                        .setThinkingSteps(List.of(
                                step(0, StepType.REASONING, "Check yesterday's positions", null),
                                step(1, StepType.TOOL, null, "get_positions"),
                                step(2, StepType.REASONING, "Cash is ample", null)))
                        .build())
                .build();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<>(ReasoningEvent.class).write(event, encoder);
        encoder.flush();
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(out.toByteArray(), null);
        ReasoningEvent read = new SpecificDatumReader<>(ReasoningEvent.class).read(null, decoder);

        assertThat(read).isEqualTo(event);
        MessageRecorded message = (MessageRecorded) read.getPayload();
        assertThat(message.getThinkingSteps()).extracting(ThinkingStep::getStepOrder).containsExactly(0, 1, 2);
        assertThat(message.getThinkingSteps()).extracting(ThinkingStep::getStepType)
                .containsExactly(StepType.REASONING, StepType.TOOL, StepType.REASONING);
    }

    private static ThinkingStep step(int order, StepType type, String content, String tool) {
        return ThinkingStep.newBuilder().setStepOrder(order).setStepType(type).setContent(content).setToolName(tool)
                .build();
    }
}
