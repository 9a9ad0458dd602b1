package dev.hindsight.platform.redact;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Redacts, in place, every field of an event that its Avro schema marks as text people or agents wrote: a field with
 * the property {@value #PROPERTY} set to {@code text}. Its value is redacted by {@link JsonRedaction}: among its
 * values when it is a JSON document (tool arguments, a span's attributes), else as free text. A marked field may be a
 * string, an optional string, or an array or map of strings. Records inside the event are
 * walked whether or not they are marked; which fields of which record to visit is worked out once per schema.
 * Idempotent: redacting a redacted event changes nothing.
 */
public final class Redaction {

    /** The field property that marks text people or agents wrote; its one value is {@code text}. */
    public static final String PROPERTY = "hindsight.text";

    private final JsonRedaction json;
    private final Map<Schema, Plan> plans = new ConcurrentHashMap<>();

    public Redaction(SecretScrubber scrubber) {
        this.json = new JsonRedaction(scrubber);
    }

    /** Redacts {@code record} in place and answers it. */
    public <R extends SpecificRecord> R apply(R record) {
        if (record != null) {
            walk(record);
        }
        return record;
    }

    /** Text with its secrets redacted: among its values when it is a JSON document, else as free text. */
    public String text(String text) {
        return json.redact(text);
    }

    private void walk(SpecificRecord record) {
        Plan plan = plans.computeIfAbsent(record.getSchema(), Redaction::plan);
        for (Visit visit : plan.visits()) {
            Object value = record.get(visit.position());
            if (value == null) {
                continue;
            }
            if (visit.mark() != null) {
                Object redacted = redact(visit.mark(), value);
                if (redacted != value) {
                    record.put(visit.position(), redacted);
                }
            } else {
                descend(value);
            }
        }
    }

    private void descend(Object value) {
        if (value instanceof SpecificRecord nested) {
            walk(nested);
        } else if (value instanceof List<?> list) {
            for (Object element : list) {
                descend(element);
            }
        } else if (value instanceof Map<?, ?> map) {
            for (Object element : map.values()) {
                descend(element);
            }
        }
    }

    /** A marked value redacted; the same object when nothing changed. */
    private Object redact(String mark, Object value) {
        if (value instanceof CharSequence text) {
            String before = text.toString();
            String after = json.redact(before);
            return after.equals(before) ? value : after;
        }
        if (value instanceof List<?> list) {
            List<Object> redacted = new ArrayList<>(list.size());
            boolean changed = false;
            for (Object element : list) {
                Object r = redact(mark, element);
                changed |= r != element;
                redacted.add(r);
            }
            return changed ? redacted : value;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> redacted = new LinkedHashMap<>();
            boolean changed = false;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Object r = redact(mark, entry.getValue());
                changed |= r != entry.getValue();
                redacted.put(entry.getKey(), r);
            }
            return changed ? redacted : value;
        }
        throw new IllegalStateException("a field marked " + PROPERTY + " holds " + value.getClass().getName());
    }

    /** Which fields of a record to visit: the marked ones, and those that may hold records. */
    private static Plan plan(Schema schema) {
        List<Visit> visits = new ArrayList<>();
        for (Schema.Field field : schema.getFields()) {
            String mark = field.getProp(PROPERTY);
            if (mark != null) {
                if (!mark.equals("text")) {
                    throw new IllegalStateException(schema.getFullName() + "." + field.name() + ": " + PROPERTY
                            + " is text, not " + mark);
                }
                visits.add(new Visit(field.pos(), mark));
            } else if (holdsRecord(field.schema())) {
                visits.add(new Visit(field.pos(), null));
            }
        }
        return new Plan(List.copyOf(visits));
    }

    /**
     * Whether values of {@code schema} may hold a record. Each record met is walked by its own class's schema, which
     * says which of its fields are text, so an enclosing schema compiled from older files cannot hide a marked field.
     */
    static boolean holdsRecord(Schema schema) {
        return switch (schema.getType()) {
            case RECORD -> true;
            case UNION -> schema.getTypes().stream().anyMatch(Redaction::holdsRecord);
            case ARRAY -> holdsRecord(schema.getElementType());
            case MAP -> holdsRecord(schema.getValueType());
            default -> false;
        };
    }

    private record Visit(int position, String mark) {
    }

    private record Plan(List<Visit> visits) {
    }
}
