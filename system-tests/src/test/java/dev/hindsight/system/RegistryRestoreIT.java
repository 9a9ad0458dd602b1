package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestDatabase;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestRegistry;
import dev.hindsight.testing.TestTenants;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry's backup restores: the running system's registry is exported with the script the prod CronJob runs,
 * a fresh registry on an empty PostgreSQL database (SQL storage and global rules as in prod) is restored from that
 * file with the restore script, and every record on Hindsight's topics then decodes through the fresh registry
 * exactly as through the original. Before the restore the fresh registry cannot decode them (the test can fail), and
 * after it a newly registered schema gets an id no record already carries.
 */
class RegistryRestoreIT {

    private static final Path BACKUPS = Path.of("..", "deploy", "k8s", "components", "backups");
    private static final Pattern GLOBAL_ID = Pattern.compile("\"globalId\"\\s*:\\s*(\\d+)");

    @TempDir
    Path dir;

    @Test
    void aFreshRegistryRestoredFromTheExportDecodesEveryRecordOnTheTopics() throws Exception {
        RunningSystem system = RunningSystem.shared();
        Demo.load(new Wire(TestTenants.TENANT_B.bearer()), system.url(Service.INGEST), system.url(Service.MEMORY));
        List<ConsumerRecord<String, byte[]>> records = recordsOnTheTopics();
        Map<Integer, GenericRecord> original = decodeAll(TestRegistry.url(), records);
        assertThat(original.keySet().stream().map(i -> records.get(i).topic()).collect(Collectors.toSet()))
                .as("topics with records the running system's registry decodes")
                .contains("hindsight.reasoning.v1", "hindsight.decisions.v1", "hindsight.signals.v1");

        Path export = dir.resolve("registry.zip");
        String exported = script("registry-export.sh", TestRegistry.url(), export.toString());
        assertThat(Files.size(export)).as(exported).isPositive();

        try (TestDatabase database = TestDatabase.create("registry_restore");
             TestRegistry.Instance fresh = TestRegistry.startPrivate("restored", Map.of(
                     "apicurio.storage.kind", "sql",
                     "apicurio.storage.sql.kind", "postgresql",
                     "apicurio.datasource.url", database.jdbcUrl(),
                     "apicurio.datasource.username", TestDatabase.user(),
                     "apicurio.datasource.password", TestDatabase.password(),
                     "apicurio.rules.global.compatibility", "BACKWARD_TRANSITIVE",
                     "apicurio.rules.global.validity", "FULL"))) {
            int sample = original.keySet().iterator().next();
            assertThat(decodeAll(fresh.url(), List.of(records.get(sample))))
                    .as("what an empty registry decodes of a record the running system wrote").isEmpty();

            String restored = script("registry-import.sh", fresh.url(), export.toString());

            Map<Integer, GenericRecord> decoded = decodeAll(fresh.url(), records);
            assertThat(decoded.keySet()).as(restored + ": records the restored registry decodes")
                    .isEqualTo(original.keySet());
            for (Map.Entry<Integer, GenericRecord> e : original.entrySet()) {
                ConsumerRecord<String, byte[]> record = records.get(e.getKey());
                assertThat(decoded.get(e.getKey())).as("%s-%d@%d", record.topic(), record.partition(), record.offset())
                        .isEqualTo(e.getValue());
            }
            System.out.printf("registry restore: %d records on %d topics decoded identically through the restored "
                    + "registry (%d bytes of export)%n", original.size(), original.keySet().stream()
                    .map(i -> records.get(i).topic()).distinct().count(), Files.size(export));

            long highestExported = highestGlobalId(TestRegistry.url());
            long next = register(fresh.url());
            assertThat(next).as("the id of a schema registered after the restore").isGreaterThan(highestExported);
            assertThat(script("registry-import.sh", fresh.url(), export.toString(), 1))
                    .as("a second restore into a registry that holds artifacts").contains("409");
        }
    }

    /** Every committed record of Hindsight's event topics (dead letters aside), from the start to the current end. */
    private static List<ConsumerRecord<String, byte[]>> recordsOnTheTopics() throws Exception {
        Map<TopicPartition, Long> ends = new HashMap<>();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", TestKafka.bootstrapServers()))) {
            List<String> topics = admin.listTopics().names().get().stream()
                    .filter(t -> t.startsWith("hindsight.") && t.endsWith(".v1")).toList();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get().forEach((name, d) -> d.partitions()
                    .forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
            admin.listOffsets(latest, new org.apache.kafka.clients.admin.ListOffsetsOptions(
                    org.apache.kafka.common.IsolationLevel.READ_COMMITTED)).all().get()
                    .forEach((tp, info) -> ends.put(tp, info.offset()));
        }
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "registry-restore-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(ends.keySet());
            consumer.seekToBeginning(ends.keySet());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (ends.keySet().stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                assertThat(System.nanoTime()).as("reading the topics to their end").isLessThan(deadline);
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.value() != null && r.offset() < ends.get(new TopicPartition(r.topic(), r.partition()))) {
                        records.add(r);
                    }
                }
            }
        }
        return records;
    }

    /** The records a registry decodes, by index; a record it cannot decode is left out. */
    private static Map<Integer, GenericRecord> decodeAll(String registry, List<ConsumerRecord<String, byte[]>> records) {
        Map<Integer, GenericRecord> decoded = new TreeMap<>();
        try (AvroKafkaDeserializer<GenericRecord> deserializer = new AvroKafkaDeserializer<>()) {
            deserializer.configure(Map.of("apicurio.registry.url", registry,
                    "apicurio.registry.use-specific-avro-reader", false), false);
            for (int i = 0; i < records.size(); i++) {
                ConsumerRecord<String, byte[]> r = records.get(i);
                try {
                    decoded.put(i, deserializer.deserialize(r.topic(), r.headers(), r.value()));
                } catch (RuntimeException unreadable) {
                    // A poison record some test wrote on purpose, or a schema this registry does not hold.
                }
            }
        }
        return decoded;
    }

    private static long highestGlobalId(String registry) throws Exception {
        String versions = get(registry + "/search/versions?limit=1000&orderby=globalId&order=desc");
        Matcher m = GLOBAL_ID.matcher(versions);
        assertThat(m.find()).as("versions in %s: %s", registry, versions).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** Registers a new Avro schema; answers its global id. */
    private static long register(String registry) throws Exception {
        String schema = "{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"AfterRestore\\\",\\\"fields\\\":"
                + "[{\\\"name\\\":\\\"a\\\",\\\"type\\\":\\\"string\\\"}]}";
        String body = "{\"artifactId\":\"after-restore-" + UUID.randomUUID() + "\",\"artifactType\":\"AVRO\","
                + "\"firstVersion\":{\"content\":{\"content\":\"" + schema + "\",\"contentType\":\"application/json\"}}}";
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(registry + "/groups/default/artifacts")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        Matcher m = GLOBAL_ID.matcher(answer.body());
        assertThat(m.find()).as(answer.body()).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(url + ": " + answer.body()).isEqualTo(200);
        return answer.body();
    }

    private static String script(String name, String url, String file) throws IOException, InterruptedException {
        return script(name, url, file, 0);
    }

    /** Runs one of the backup scripts with sh, as the CronJob's container does; asserts its exit code. */
    private static String script(String name, String url, String file, int expectedExit)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sh", BACKUPS.resolve(name).toString(), url, file)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(600, TimeUnit.SECONDS)).as(name + " finished").isTrue();
        assertThat(process.exitValue()).as(name + ": " + output).isEqualTo(expectedExit);
        return output;
    }
}
