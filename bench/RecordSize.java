import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Mean serialized value size (bytes, as stored: Apicurio header + Avro) of the last N records of a topic, so that
 * Kafka's ProducerPerformance can be run with the same record size. Run with the broker's libs on the class path:
 *
 *   java -cp ".hindsight/dist/kafka-4.3.1/libs/*" bench/RecordSize.java 127.0.0.1:9092 hindsight.reasoning.v1 2000
 */
public class RecordSize {

    public static void main(String[] args) {
        Properties config = new Properties();
        config.put("bootstrap.servers", args[0]);
        config.put("key.deserializer", ByteArrayDeserializer.class.getName());
        config.put("value.deserializer", ByteArrayDeserializer.class.getName());
        config.put("enable.auto.commit", "false");
        int wanted = Integer.parseInt(args[2]);
        long total = 0;
        int count = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(args[1]).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            var ends = consumer.endOffsets(partitions);
            for (TopicPartition partition : partitions) {
                consumer.seek(partition, Math.max(0, ends.get(partition) - wanted / partitions.size()));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (count < wanted && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    total += record.serializedValueSize();
                    count++;
                }
            }
        }
        System.out.println(count == 0 ? 0 : total / count);
    }
}
