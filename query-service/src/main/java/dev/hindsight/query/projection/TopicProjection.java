package dev.hindsight.query.projection;

import dev.hindsight.events.EventHeader;
import dev.hindsight.platform.consumer.Channel;
import dev.hindsight.platform.consumer.ChannelConsumer;
import dev.hindsight.platform.kafka.Decoded;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * What every topic's projection shares: its topic and dead-letter topic (from its channel's name), ledger name and
 * envelope type, and handing a polled batch to {@link Projector}. A subclass adds its {@code @Incoming} method (one
 * line calling {@link #live}) and {@link #apply}. Subclasses are {@code @Singleton}s: a client proxy would need a
 * no-argument constructor.
 */
public abstract class TopicProjection<E> extends ChannelConsumer<E> implements Projection<E> {

    private final Projector projector;
    private final String consumer;
    private final Function<E, EventHeader> header;

    /** The projection of channel {@code channel} (its topics as configured, {@link Channel#incoming}). */
    protected TopicProjection(Projector projector, String channel, String consumer, Class<E> envelopeType,
            Function<E, EventHeader> header) {
        super(channel, envelopeType);
        this.projector = projector;
        this.consumer = consumer;
        this.header = header;
    }

    /** Projects a polled batch into every generation being written; completes after the commit. */
    protected Uni<Void> live(ConsumerRecords<String, Decoded> records) {
        List<ConsumerRecord<String, Decoded>> list = new ArrayList<>(records.count());
        records.forEach(list::add);
        return projector.live(this, list);
    }

    @Override
    public String consumer() {
        return consumer;
    }

    @Override
    public EventHeader header(E envelope) {
        return header.apply(envelope);
    }
}
