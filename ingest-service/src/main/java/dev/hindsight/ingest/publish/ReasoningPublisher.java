package dev.hindsight.ingest.publish;

import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.platform.kafka.Publisher;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Receipt;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

/**
 * The single writer of {@code hindsight.reasoning.v1}. Completes only after Kafka acknowledged every event (acks=all,
 * idempotent producer); when it cannot, the caller gets 503 with Retry-After and nothing is acknowledged.
 */
@ApplicationScoped
public class ReasoningPublisher {

    private static final Logger LOG = Logger.getLogger(ReasoningPublisher.class);
    private static final String RETRY_AFTER_SECONDS = "5";

    private final MutinyEmitter<ReasoningEvent> emitter;

    public ReasoningPublisher(
            @Channel("reasoning") @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 8192)
            MutinyEmitter<ReasoningEvent> emitter) {
        this.emitter = emitter;
    }

    public Uni<List<Receipt>> publish(List<Outgoing<ReasoningEvent>> events) {
        return Publisher.publishAll(emitter, events)
                .onFailure().transform(failure -> {
                    LOG.warnf("Kafka did not acknowledge %d event(s): %s", events.size(), failure.toString());
                    return new ProblemException(Problem.of(503, "Service unavailable",
                            "The event log did not acknowledge the events; nothing was accepted. Retry later."),
                            Map.of("Retry-After", RETRY_AFTER_SECONDS));
                });
    }
}
