package dev.hindsight.platform.consumer;

/**
 * What every consumer of one channel is, whatever it does with a batch (platform's {@link TopicHandler}, query-service's
 * projections): the topic and dead-letter topic its channel is configured with ({@link Channel#incoming}), and the
 * envelope type it decodes.
 */
public abstract class ChannelConsumer<E> {

    private final Channel channel;
    private final Class<E> envelopeType;

    protected ChannelConsumer(String channel, Class<E> envelopeType) {
        this.channel = Channel.incoming(channel);
        this.envelopeType = envelopeType;
    }

    public String topic() {
        return channel.topic();
    }

    public String deadLetterTopic() {
        return channel.deadLetterTopic();
    }

    public Class<E> envelopeType() {
        return envelopeType;
    }
}
