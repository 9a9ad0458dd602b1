package dev.hindsight.platform.kafka;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.UnresolvedUnionException;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Writes generated Avro classes with a writer compiled once per schema: a tree of nodes, one per schema position, each
 * knowing its field index, its union branches and its logical-type conversion up front. Avro's
 * {@code SpecificDatumWriter} works all of that out again for every field of every record: union branches by the
 * datum's schema name, conversions by class (the envelopes carry logical types, so Avro generates no custom coders for
 * them). Every event a service publishes is written here, which is why that repeated work is worth avoiding
 * (docs/benchmarks.md). The bytes are Avro's binary encoding exactly as {@code SpecificDatumWriter} writes it, for
 * every envelope schema ({@code CompiledDatumWriterTest}). A {@code null} where the schema allows none fails with a
 * {@link NullPointerException} naming the field, as with Avro's writer; a value of a type the schema does not take
 * fails too ({@link ClassCastException}, or {@link UnresolvedUnionException} in a union of several types).
 */
final class CompiledDatumWriter<T> implements DatumWriter<T> {

    /** Writes one value of one schema position. */
    private interface Node {
        void write(Object value, Encoder out) throws IOException;
    }

    private final Schema schema;
    private final Node root;

    CompiledDatumWriter(Schema schema, SpecificData model) {
        this.schema = schema;
        this.root = new Compiler(model).node(schema, schema.getName());
    }

    @Override
    public void setSchema(Schema schema) {
        if (schema != this.schema) {
            throw new UnsupportedOperationException("a compiled writer writes the one schema it was compiled for");
        }
    }

    @Override
    public void write(T datum, Encoder out) throws IOException {
        root.write(datum, out);
    }

    private static final class Compiler {

        private final SpecificData model;
        // A record node is made once per schema, so a schema that refers to itself compiles to a cycle, not forever.
        private final Map<Schema, RecordNode> records = new IdentityHashMap<>();

        Compiler(SpecificData model) {
            this.model = model;
        }

        Node node(Schema schema, String path) {
            LogicalType logicalType = schema.getLogicalType();
            Node raw = rawNode(schema, path);
            if (logicalType == null) {
                return raw;
            }
            return logical(schema, logicalType, raw, path);
        }

        private Node rawNode(Schema schema, String path) {
            return switch (schema.getType()) {
                case RECORD -> record(schema);
                case UNION -> union(schema, path);
                case ARRAY -> array(node(schema.getElementType(), path + "[]"), path);
                case MAP -> map(node(schema.getValueType(), path + "{}"), path);
                case ENUM -> enumeration(schema, path);
                case STRING -> (value, out) -> out.writeString((CharSequence) required(value, "string", path));
                case INT -> (value, out) -> out.writeInt(((Number) required(value, "int", path)).intValue());
                case LONG -> (value, out) -> out.writeLong(((Number) required(value, "long", path)).longValue());
                case DOUBLE -> (value, out) -> out.writeDouble(((Number) required(value, "double", path)).doubleValue());
                case FLOAT -> (value, out) -> out.writeFloat(((Number) required(value, "float", path)).floatValue());
                case BOOLEAN -> (value, out) -> out.writeBoolean((Boolean) required(value, "boolean", path));
                case BYTES -> (value, out) -> out.writeBytes(((ByteBuffer) required(value, "bytes", path)).duplicate());
                case FIXED -> (value, out) -> out.writeFixed(((GenericFixed) required(value, "fixed", path)).bytes(),
                        0, schema.getFixedSize());
                case NULL -> (value, out) -> {
                    if (value != null) {
                        throw new UnresolvedUnionException(schema, value);
                    }
                    out.writeNull();
                };
            };
        }

        private Node record(Schema schema) {
            RecordNode existing = records.get(schema);
            if (existing != null) {
                return existing;
            }
            RecordNode node = new RecordNode(schema.getFullName(), schema.getFields().size());
            records.put(schema, node);
            for (Schema.Field field : schema.getFields()) {
                node.fields[field.pos()] = node(field.schema(), schema.getName() + "." + field.name());
            }
            return node;
        }

        private Node logical(Schema schema, LogicalType logicalType, Node raw, String path) {
            Conversion<Object> conversion = model.getConversionFor(logicalType);
            if (conversion == null) {
                return raw;
            }
            Class<?> converted = conversion.getConvertedType();
            // The envelopes' own logical types, converted without going through Object and back.
            if (logicalType instanceof LogicalTypes.TimestampMillis && converted == Instant.class) {
                return (value, out) -> {
                    if (value instanceof Instant instant) {
                        out.writeLong(instant.toEpochMilli());
                    } else {
                        raw.write(value, out);
                    }
                };
            }
            if (logicalType instanceof LogicalTypes.Date && converted == LocalDate.class) {
                return (value, out) -> {
                    if (value instanceof LocalDate date) {
                        out.writeInt((int) date.toEpochDay());
                    } else {
                        raw.write(value, out);
                    }
                };
            }
            if ("uuid".equals(logicalType.getName()) && schema.getType() == Schema.Type.STRING
                    && converted == UUID.class) {
                return (value, out) -> {
                    if (value instanceof UUID uuid) {
                        writeUuid(uuid, out);
                    } else {
                        raw.write(value, out);
                    }
                };
            }
            return (value, out) -> raw.write(converted.isInstance(value)
                    ? Conversions.convertToRawType(value, schema, logicalType, conversion)
                    : value, out);
        }

        private Node union(Schema schema, String path) {
            List<Schema> branches = schema.getTypes();
            Node[] nodes = new Node[branches.size()];
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = node(branches.get(i), path);
            }
            Integer nullIndex = schema.getIndexNamed(Schema.Type.NULL.getName());
            if (nullIndex != null && branches.size() == 2) {
                int nulls = nullIndex;
                int other = 1 - nulls;
                Node value = nodes[other];
                return (datum, out) -> {
                    if (datum == null) {
                        out.writeIndex(nulls);
                        out.writeNull();
                    } else {
                        out.writeIndex(other);
                        value.write(datum, out);
                    }
                };
            }
            return new UnionNode(schema, nodes, model);
        }

        private static Node array(Node element, String path) {
            return (value, out) -> {
                Collection<?> items = (Collection<?>) required(value, "array", path);
                int size = items.size();
                out.writeArrayStart();
                out.setItemCount(size);
                int written = 0;
                for (Object item : items) {
                    out.startItem();
                    element.write(item, out);
                    written++;
                }
                out.writeArrayEnd();
                requireWritten(size, written, "array", path);
            };
        }

        private static Node map(Node values, String path) {
            return (value, out) -> {
                Map<?, ?> entries = (Map<?, ?>) required(value, "map", path);
                int size = entries.size();
                out.writeMapStart();
                out.setItemCount(size);
                int written = 0;
                for (Map.Entry<?, ?> entry : entries.entrySet()) {
                    out.startItem();
                    out.writeString(entry.getKey().toString());
                    values.write(entry.getValue(), out);
                    written++;
                }
                out.writeMapEnd();
                requireWritten(size, written, "map", path);
            };
        }

        private static Node enumeration(Schema schema, String path) {
            return (value, out) -> {
                // As SpecificDatumWriter: a generated enum by its ordinal, anything else by its symbol's position.
                if (required(value, "enum", path) instanceof Enum<?> symbol) {
                    out.writeEnum(symbol.ordinal());
                } else {
                    out.writeEnum(schema.getEnumOrdinal(value.toString()));
                }
            };
        }
    }

    private static final class RecordNode implements Node {

        final String name;
        final Node[] fields;

        RecordNode(String name, int size) {
            this.name = name;
            this.fields = new Node[size];
        }

        @Override
        public void write(Object value, Encoder out) throws IOException {
            IndexedRecord record = (IndexedRecord) value;
            if (record == null) {
                throw new NullPointerException("null value for (non-nullable) record " + name);
            }
            for (int i = 0; i < fields.length; i++) {
                fields[i].write(record.get(i), out);
            }
        }
    }

    /**
     * A union of more than null and one other type (an envelope's payload). Which branch a value takes depends only
     * on its class for generated records and enums, strings, numbers and collections, so the answer Avro's resolution
     * gives is kept per class; generic records, whose schema is per instance, are resolved every time.
     */
    private static final class UnionNode implements Node {

        private final Schema schema;
        private final Node[] branches;
        private final SpecificData model;
        private final Map<Class<?>, Integer> byClass = new ConcurrentHashMap<>();

        UnionNode(Schema schema, Node[] branches, SpecificData model) {
            this.schema = schema;
            this.branches = branches;
            this.model = model;
        }

        @Override
        public void write(Object value, Encoder out) throws IOException {
            int index = index(value);
            out.writeIndex(index);
            branches[index].write(value, out);
        }

        private int index(Object value) {
            if (value == null) {
                return model.resolveUnion(schema, null);
            }
            Class<?> type = value.getClass();
            Integer known = byClass.get(type);
            if (known != null) {
                return known;
            }
            int index = model.resolveUnion(schema, value);
            if (!(value instanceof GenericContainer) || value instanceof SpecificRecord || value instanceof Enum<?>) {
                byClass.put(type, index);
            }
            return index;
        }
    }

    /** The count written before the items must be the number of items written, or the bytes cannot be read back. */
    private static void requireWritten(int size, int written, String type, String path) {
        if (written != size) {
            throw new ConcurrentModificationException(
                    type + " at " + path + " changed size while written: " + size + " then " + written);
        }
    }

    private static Object required(Object value, String type, String path) {
        if (value == null) {
            throw new NullPointerException("null value for (non-nullable) " + type + " at " + path);
        }
        return value;
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final ThreadLocal<byte[]> UUID_TEXT = ThreadLocal.withInitial(() -> new byte[36]);

    /** A UUID as the string {@link UUID#toString()} gives (lower-case, hyphenated), without making the string. */
    private static void writeUuid(UUID uuid, Encoder out) throws IOException {
        byte[] text = UUID_TEXT.get();
        long msb = uuid.getMostSignificantBits();
        long lsb = uuid.getLeastSignificantBits();
        hex(text, 0, msb >>> 32, 8);
        text[8] = '-';
        hex(text, 9, msb >>> 16, 4);
        text[13] = '-';
        hex(text, 14, msb, 4);
        text[18] = '-';
        hex(text, 19, lsb >>> 48, 4);
        text[23] = '-';
        hex(text, 24, lsb, 12);
        out.writeInt(text.length);
        out.writeFixed(text, 0, text.length);
    }

    private static void hex(byte[] into, int at, long bits, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            into[at + i] = HEX[(int) (bits & 0xF)];
            bits >>>= 4;
        }
    }
}
