package dev.hindsight.memory.feed;

import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.memory.bank.MemoryProjection;
import dev.hindsight.platform.consumer.DeadLetters;
import dev.hindsight.platform.consumer.TopicHandler;
import dev.hindsight.platform.consumer.TransactionalBatches.Consumed;
import dev.hindsight.platform.kafka.Decoded;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.inject.Singleton;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Projects hindsight.memory.v1 into memory-service's database: the changes other replicas made, and (on an empty
 * database) the whole history. Events this replica published were applied when they were acknowledged; the ledger
 * skips them here.
 */
@Singleton
public class MemoryFeed extends TopicHandler<MemoryEvent> {

    private final MemoryProjection projection;

    public MemoryFeed(Pool pool, DeadLetters deadLetters, MemoryProjection projection) {
        super(pool, deadLetters, "memories", MemoryEvent.class);
        this.projection = projection;
    }

    @Incoming("memories")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return process(records);
    }

    @Override
    public Uni<Void> apply(SqlClient tx, List<Consumed<MemoryEvent>> events) {
        return projection.apply(tx, events.stream().map(Consumed::envelope).toList());
    }
}
