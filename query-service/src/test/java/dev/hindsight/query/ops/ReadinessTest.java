package dev.hindsight.query.ops;

import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.ReadinessContract;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class ReadinessTest extends ReadinessContract {

    /** Reads are answered from PostgreSQL: Kafka is reported, not required (ReadsWithoutKafkaTest). */
    @Override
    protected String kafkaCheck() {
        return "kafka";
    }
}
