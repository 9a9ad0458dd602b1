package dev.hindsight.query.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Given a group's committed offsets and the partitions' ends, then its lag is what it has yet to read. */
class KafkaOverviewTest {

    @Test
    void lagIsTheDistanceToEachPartitionsEndSummedPerTopicAndGroup() {
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        positions.put(new TopicPartition("a", 0), new OffsetAndMetadata(10));
        positions.put(new TopicPartition("a", 1), new OffsetAndMetadata(5));
        positions.put(new TopicPartition("b", 0), new OffsetAndMetadata(7));
        // Nothing committed yet: all of the partition is still to read.
        positions.put(new TopicPartition("b", 1), null);
        Map<TopicPartition, Long> ends = Map.of(new TopicPartition("a", 0), 12L, new TopicPartition("a", 1), 5L,
                new TopicPartition("b", 0), 7L, new TopicPartition("b", 1), 4L);

        KafkaOverview.GroupLag lag = KafkaOverview.groupLag("g", positions, ends);

        assertThat(lag.lag()).isEqualTo(6);
        assertThat(lag.partitions()).isEqualTo(4);
        assertThat(lag.topics()).containsExactly(new KafkaOverview.TopicLag("a", 2, 2),
                new KafkaOverview.TopicLag("b", 4, 2));
    }

    @Test
    void aPositionBeyondAnEndAfterRetentionIsNoLagNotANegativeOne() {
        Map<TopicPartition, OffsetAndMetadata> positions = Map.of(new TopicPartition("a", 0),
                new OffsetAndMetadata(20));

        assertThat(KafkaOverview.groupLag("g", positions, Map.of(new TopicPartition("a", 0), 15L)).lag()).isZero();
    }
}
