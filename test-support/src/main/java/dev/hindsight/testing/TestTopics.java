package dev.hindsight.testing;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.Sealed;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Reads and writes the test broker's topics with the real Apicurio Avro serdes, as a service would. */
public final class TestTopics {

    private TestTopics() {
    }

    /**
     * Reads {@code topic} from the beginning until {@code count} records match {@code filter} or {@code timeout}
     * passes; returns the matches found (fewer than {@code count} on timeout, so the caller's assertion says how many).
     */
    public static <T extends SpecificRecord> List<ConsumerRecord<String, T>> read(String topic, Class<T> type,
            Predicate<T> filter, int count, Duration timeout) {
        List<ConsumerRecord<String, T>> matches = new ArrayList<>();
        scan(TestKafka.bootstrapServers(), topic, type, timeout, record -> {
            if (filter.test(record.value())) {
                matches.add(record);
            }
            return matches.size() >= count;
        });
        return matches;
    }

    /**
     * Reads {@code topic} from the beginning until a record matches {@code marker}, and returns every record before it
     * that matches {@code filter}, and the marker. This is how a test proves an absence without waiting an arbitrary
     * time: publish a marker after the event that must not exist, on the same key (so the same partition, in order);
     * once the marker is read, anything published before it has been read too. Fails when the marker does not come
     * within {@code timeout}.
     */
    public static <T extends SpecificRecord> List<ConsumerRecord<String, T>> readUntil(String topic, Class<T> type,
            Predicate<T> filter, Predicate<T> marker, Duration timeout) {
        return readUntil(TestKafka.bootstrapServers(), topic, type, filter, marker, timeout);
    }

    /** {@link #readUntil(String, Class, Predicate, Predicate, Duration)} on another broker than the shared one. */
    public static <T extends SpecificRecord> List<ConsumerRecord<String, T>> readUntil(String bootstrapServers,
            String topic, Class<T> type, Predicate<T> filter, Predicate<T> marker, Duration timeout) {
        List<ConsumerRecord<String, T>> matches = new ArrayList<>();
        boolean[] seen = {false};
        boolean found = scan(bootstrapServers, topic, type, timeout, record -> {
            if (!seen[0]) {
                seen[0] = marker.test(record.value());
                if (seen[0] || filter.test(record.value())) {
                    matches.add(record);
                }
            }
            return seen[0];
        });
        if (!found) {
            throw new AssertionError("The marker was not read from " + topic + " within " + timeout);
        }
        return matches;
    }

    /**
     * Reads {@code topic} from the beginning, showing {@code done} every record, until it has said true (then finishes
     * the batch in hand, so a duplicate right behind a match is seen too, and answers true) or {@code timeout} passes
     * (false).
     */
    private static <T extends SpecificRecord> boolean scan(String bootstrapServers, String topic, Class<T> type,
            Duration timeout, Predicate<ConsumerRecord<String, T>> done) {
        Map<String, Object> config = genericReaderConfig(bootstrapServers);
        SpecificData specific = specificData(type);
        try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(config);
                AvroKafkaDeserializer<GenericRecord> sealed = new AvroKafkaDeserializer<>()) {
            sealed.configure(config, false);
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            boolean finished = false;
            while (!finished && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, GenericRecord> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value() == null) {
                        continue;
                    }
                    GenericRecord opened = opened(bootstrapServers, topic, record.value(), type, specific, sealed);
                    if (opened == null) {
                        continue; // erased: its key was destroyed, and a consumer reads nothing of it
                    }
                    T value = toSpecific(opened, type, specific);
                    finished |= done.test(new ConsumerRecord<>(record.topic(), record.partition(), record.offset(),
                            record.key(), value));
                }
            }
            return finished;
        }
    }

    /** A reader of generic records from the registry; {@link #specificData} turns them into the test's classes. */
    private static Map<String, Object> genericReaderConfig(String bootstrapServers) {
        Map<String, Object> config = new HashMap<>(readerConfig(bootstrapServers, AvroKafkaDeserializer.class));
        config.put("apicurio.registry.url", TestRegistry.url());
        config.put("apicurio.registry.use-specific-avro-reader", false);
        return config;
    }

    /**
     * Converts generic records to {@code type}'s generated classes: under @QuarkusTest, Avro's shared SpecificData
     * would resolve them through another class loader than the test's.
     */
    private static SpecificData specificData(Class<?> type) {
        SpecificData specific = new SpecificData(type.getClassLoader());
        specific.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        specific.addLogicalTypeConversion(new TimeConversions.DateConversion());
        specific.addLogicalTypeConversion(new Conversions.UUIDConversion());
        return specific;
    }

    /**
     * The envelope with its payload opened, when it was sealed (ADR 0027), or null when its key was destroyed: as a
     * consumer reads it. Tests that check
     * what a service published see it as published before sealing, and sealing itself is checked on the raw bytes.
     */
    private static <T> GenericRecord opened(String bootstrapServers, String topic, GenericRecord envelope,
            Class<T> type, SpecificData specific, AvroKafkaDeserializer<GenericRecord> sealed) {
        if (!(envelope.get("payload") instanceof GenericRecord payload)
                || !payload.getSchema().getFullName().equals(Sealed.class.getName())) {
            return envelope;
        }
        GenericRecord header = (GenericRecord) envelope.get("header");
        HindsightTopic kind = HindsightTopic.byEnvelope(envelope.getSchema().getFullName()).orElseThrow();
        String recordKey = kind.recordKey((SpecificRecordBase) toSpecific(envelope, type, specific));
        java.nio.ByteBuffer ciphertext = ((java.nio.ByteBuffer) payload.get("ciphertext")).duplicate();
        byte[] bytes = new byte[ciphertext.remaining()];
        ciphertext.get(bytes);
        byte[] clear = TestCrypto.open(bootstrapServers, header.get("tenant_id").toString(),
                payload.get("key_id").toString(), bytes, recordKey, UUID.fromString(header.get("event_id").toString()));
        return clear == null ? null : sealed.deserialize(topic, clear);
    }

    /**
     * Every record {@code topic} holds now, from its beginning, as {@code type}, sealed ones opened and erased ones
     * left out, as a consumer reads them.
     */
    public static <T extends SpecificRecord> List<T> readAll(String bootstrapServers, String topic, Class<T> type) {
        Map<String, Object> config = genericReaderConfig(bootstrapServers);
        SpecificData specific = specificData(type);
        List<T> all = new ArrayList<>();
        try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(config);
                AvroKafkaDeserializer<GenericRecord> sealed = new AvroKafkaDeserializer<>()) {
            sealed.configure(config, false);
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topic + " not read to its end within 30 s");
                }
                for (ConsumerRecord<String, GenericRecord> record : consumer.poll(Duration.ofMillis(200))) {
                    GenericRecord opened = record.value() == null ? null
                            : opened(bootstrapServers, topic, record.value(), type, specific, sealed);
                    if (opened != null) {
                        all.add(toSpecific(opened, type, specific));
                    }
                }
            }
        }
        return all;
    }

    /**
     * Reads records from the beginning of {@code topic} as stored: values as bytes (decompressed by the client, never
     * decoded), until {@code count} match {@code filter} or {@code timeout} passes.
     */
    public static List<ConsumerRecord<String, byte[]>> readRaw(String bootstrapServers, String topic,
            Predicate<ConsumerRecord<String, byte[]>> filter, int count, Duration timeout) {
        Map<String, Object> config = readerConfig(bootstrapServers,
                org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        List<ConsumerRecord<String, byte[]>> matches = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (matches.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value() != null && filter.test(record)) {
                        matches.add(record);
                    }
                }
            }
        }
        return matches;
    }

    /**
     * Reads records by key and headers only (values are not decoded and come back null): for dead letters, whose
     * value may be unreadable by design.
     */
    public static <T extends SpecificRecord> List<ConsumerRecord<String, T>> readRecords(String topic,
            Predicate<ConsumerRecord<String, ?>> filter, int count, Duration timeout) {
        Map<String, Object> config = readerConfig(TestKafka.bootstrapServers(),
                org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        List<ConsumerRecord<String, T>> matches = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (matches.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (filter.test(record)) {
                        matches.add(new ConsumerRecord<>(record.topic(), record.partition(), record.offset(),
                                record.timestamp(), record.timestampType(), record.serializedKeySize(),
                                record.serializedValueSize(), record.key(), null, record.headers(),
                                record.leaderEpoch()));
                    }
                }
            }
        }
        return matches;
    }

    /** A fresh consumer group reading from the beginning, committing nothing. */
    private static Map<String, Object> readerConfig(String bootstrapServers, Class<?> valueDeserializer) {
        return Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                // As every Hindsight consumer: events of an aborted or open transaction are never seen.
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, valueDeserializer);
    }

    /** Re-reads a generic record as {@code type}, applying the logical-type conversions the generated class uses. */
    private static <T> T toSpecific(GenericRecord generic, Class<T> type, SpecificData specific) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            new GenericDatumWriter<GenericRecord>(generic.getSchema()).write(generic, encoder);
            encoder.flush();
            Schema readerSchema = specific.getSchema(type);
            SpecificDatumReader<T> reader = new SpecificDatumReader<>(generic.getSchema(), readerSchema, specific);
            return reader.read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Publishes {@code value} keyed by {@code key}, waits for the broker's acknowledgement and says where it went. */
    public static <T extends SpecificRecord> RecordMetadata write(String topic, String key, T value) {
        return writeAll(topic, List.of(Map.entry(key, value))).get(0);
    }

    /** Publishes (key, value) pairs in order through one producer and waits until the broker acknowledged all. */
    public static <T extends SpecificRecord> List<RecordMetadata> writeAll(
            String topic, List<Map.Entry<String, T>> records) {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, AvroKafkaSerializer.class,
                "apicurio.registry.url", TestRegistry.url(),
                "apicurio.registry.find-latest", true);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(TestTopics.class.getClassLoader());
        try (KafkaProducer<String, T> producer = new KafkaProducer<>(config)) {
            List<java.util.concurrent.Future<RecordMetadata>> sent = new ArrayList<>();
            for (Map.Entry<String, T> record : records) {
                sent.add(producer.send(new ProducerRecord<>(topic, record.getKey(), record.getValue())));
            }
            List<RecordMetadata> written = new ArrayList<>(sent.size());
            for (java.util.concurrent.Future<RecordMetadata> ack : sent) {
                written.add(ack.get());
            }
            return written;
        } catch (Exception e) {
            throw new IllegalStateException("Could not write test events to " + topic, e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** The offset group {@code group} has committed on {@code partition} (the next one it will read), or -1. */
    public static long committed(String group, TopicPartition partition) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", TestKafka.bootstrapServers()))) {
            var at = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(partition);
            return at == null ? -1 : at.offset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot read the offsets of group " + group, e);
        }
    }

    /**
     * How many records of {@code topics} the consumer group {@code group} has not committed yet (a partition without a
     * commit counts from 0). Zero means everything written so far has been processed and committed, so a consumer
     * that commits after its database transaction has it in its database.
     */
    public static long lag(String group, List<String> topics) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", TestKafka.bootstrapServers()))) {
            Map<TopicPartition, Long> ends = endOffsets(admin, topics);
            var committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            long lag = 0;
            for (var end : ends.entrySet()) {
                var at = committed.get(end.getKey());
                lag += end.getValue() - (at == null ? 0 : at.offset());
            }
            return lag;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not read the lag of group " + group, e);
        }
    }

    /** The end offset of every partition of {@code topics}, as {@code admin}'s broker has it now. */
    public static Map<TopicPartition, Long> endOffsets(Admin admin, List<String> topics)
            throws InterruptedException, ExecutionException {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get().forEach((name, description) ->
                description.partitions().forEach(p -> latest.put(new TopicPartition(name, p.partition()),
                        OffsetSpec.latest())));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest).all().get().forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
    }

    /** Publishes raw bytes (e.g. a poison event that no schema can read). */
    public static void writeRaw(String topic, String key, byte[] value) {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                org.apache.kafka.common.serialization.ByteArraySerializer.class);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config)) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("Could not write a raw test event to " + topic, e);
        }
    }
}
