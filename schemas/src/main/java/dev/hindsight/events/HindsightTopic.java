package dev.hindsight.events;

import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.erasures.ErasureEvent;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.events.keys.KeyEvent;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.events.spans.SpanEvent;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Every topic declared once: its default name, its owner, what its key is, and the envelope schema of its values.
 * The owner is the topic's single writer, except for the data keys, which every service that seals writes (ADR
 * 0027), and the erasure log, on which every read model says it applied an erasure (ADR 0028). Every writer registers the schemas and provisions the topics it writes (both idempotent). Every topic gets the same partition count
 * (configuration), which keeps decisions, signals and evaluations co-partitioned by message id.
 */
public enum HindsightTopic {

    REASONING("hindsight.reasoning.v1", "ingest-service", "session id", ReasoningEvent.class),
    DECISIONS("hindsight.decisions.v1", "ingest-service", "message id", DecisionEvent.class),
    SIGNALS("hindsight.signals.v1", "ingest-service", "message id", SignalEvent.class),
    INSIGHTS("hindsight.insights.v1", "evaluation-service", "session id", InsightEvent.class),
    EVALUATIONS("hindsight.evaluations.v1", "evaluation-service", "message id", EvaluationEvent.class),
    MEMORY("hindsight.memory.v1", "memory-service", "memory id ('project:' + project id for a project purge)",
            MemoryEvent.class),
    KEYS("hindsight.keys.v1", "ingest-service", "key id", KeyEvent.class),
    SPANS("hindsight.spans.v1", "ingest-service", "trace id (hex)", SpanEvent.class),
    DATA_KEYS("hindsight.datakeys.v1", "ingest-service", "data key id", DataKeyEvent.class),
    ERASURES("hindsight.erasures.v1", "ingest-service", "erasure id", ErasureEvent.class);

    private final String defaultName;
    private final String writer;
    private final String key;
    private final Class<? extends SpecificRecordBase> valueType;

    HindsightTopic(String defaultName, String writer, String key, Class<? extends SpecificRecordBase> valueType) {
        this.defaultName = defaultName;
        this.writer = writer;
        this.key = key;
        this.valueType = valueType;
    }

    /** Topic name used when configuration does not override it. */
    public String defaultName() {
        return defaultName;
    }

    /** The service that owns this topic (its application name): its single writer, but for the data keys. */
    public String writer() {
        return writer;
    }

    /**
     * Every service that writes this topic: its owner; for the data keys, every service that writes a sealed topic,
     * since each issues the keys it seals under (a key must be durable before anything sealed under it is sent, so
     * asking another service for one would put that service on every publisher's path), and query-service, which
     * destroys the keys of sessions idle beyond their retention age (ADR 0029); for the erasure log, ingest,
     * which accepts erasures, and every service with a read model, each saying it applied one.
     */
    public java.util.List<String> writers() {
        if (this == ERASURES) {
            return java.util.List.of(writer, "query-service", "evaluation-service", "memory-service");
        }
        if (this != DATA_KEYS) {
            return java.util.List.of(writer);
        }
        return java.util.stream.Stream.concat(
                java.util.Arrays.stream(values()).filter(HindsightTopic::sealed).map(t -> t.writer),
                java.util.stream.Stream.of("query-service")).distinct().toList();
    }

    /** The topics {@code service} writes. */
    public static java.util.List<HindsightTopic> writtenBy(String service) {
        return java.util.Arrays.stream(values()).filter(t -> t.writers().contains(service)).toList();
    }

    /** What the record key holds; it decides ordering and which events meet on one partition. */
    public String key() {
        return key;
    }

    /** The envelope schema every value of this topic is written with. */
    public Schema valueSchema() {
        return SpecificData.getForClass(valueType).getSchema(valueType);
    }

    /**
     * Whether the topic is compacted (only its keys' latest events are kept) rather than kept whole forever: the data
     * keys, whose destruction must remove their material from the brokers' disks (ADR 0027).
     */
    public boolean compacted() {
        return this == DATA_KEYS;
    }

    /**
     * Whether this topic's payloads are sealed under data keys (ADR 0027): every topic that carries what people or
     * agents wrote. The API keys (a name and a hash), the data keys themselves (wrapped) and the erasure log (ids,
     * a keyed hash and counts) are Hindsight's own.
     */
    public boolean sealed() {
        return this != KEYS && this != DATA_KEYS && this != ERASURES;
    }

    /**
     * The record key {@code envelope} is published under, read from the envelope itself: what a sealed payload is
     * bound to, so that it opens only in an envelope of the same session, trace, message or memory.
     */
    public String recordKey(SpecificRecordBase envelope) {
        return switch (this) {
            case REASONING, INSIGHTS -> field(envelope, "session_id");
            case DECISIONS, SIGNALS, EVALUATIONS -> field(envelope, "message_id");
            case SPANS -> field(envelope, "trace_id");
            case KEYS, DATA_KEYS -> field(envelope, "key_id");
            case ERASURES -> field(envelope, "erasure_id");
            case MEMORY -> envelope.get("memory_id") != null ? field(envelope, "memory_id")
                    : "project:" + field(envelope, "project_id");
        };
    }

    private static String field(SpecificRecordBase envelope, String name) {
        return String.valueOf(envelope.get(name));
    }

    /** The generated envelope class. */
    public Class<? extends SpecificRecordBase> valueType() {
        return valueType;
    }

    /** The topic whose envelope has this full name, e.g. {@code dev.hindsight.events.reasoning.ReasoningEvent}. */
    public static java.util.Optional<HindsightTopic> byEnvelope(String fullName) {
        return java.util.Arrays.stream(values()).filter(t -> t.valueType.getName().equals(fullName)).findFirst();
    }

    /** The topic whose default name is {@code name}, if it is one of Hindsight's. */
    public static java.util.Optional<HindsightTopic> byName(String name) {
        return java.util.Arrays.stream(values()).filter(t -> t.defaultName.equals(name)).findFirst();
    }

    /** Registry artifact id under the serde's default topic-name strategy. */
    public String valueArtifactId() {
        return defaultName + "-value";
    }
}
