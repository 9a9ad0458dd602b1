package dev.hindsight.events;

import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.signals.SignalEvent;
import org.apache.avro.Schema;

/**
 * Every source topic declared once: its default name, what its key is, and the envelope schema of its values.
 * Producers register these schemas and provision these topics. Every topic gets the same partition count
 * (configuration), which keeps decisions and signals co-partitioned by message id.
 */
public enum HindsightTopic {

    REASONING("hindsight.reasoning.v1", "session id", ReasoningEvent.getClassSchema()),
    DECISIONS("hindsight.decisions.v1", "message id", DecisionEvent.getClassSchema()),
    SIGNALS("hindsight.signals.v1", "message id", SignalEvent.getClassSchema());

    private final String defaultName;
    private final String key;
    private final Schema valueSchema;

    HindsightTopic(String defaultName, String key, Schema valueSchema) {
        this.defaultName = defaultName;
        this.key = key;
        this.valueSchema = valueSchema;
    }

    /** Topic name used when configuration does not override it. */
    public String defaultName() {
        return defaultName;
    }

    /** What the record key holds; it decides ordering and which events meet on one partition. */
    public String key() {
        return key;
    }

    /** The envelope schema every value of this topic is written with. */
    public Schema valueSchema() {
        return valueSchema;
    }

    /** Registry artifact id under the serde's default topic-name strategy. */
    public String valueArtifactId() {
        return defaultName + "-value";
    }
}
