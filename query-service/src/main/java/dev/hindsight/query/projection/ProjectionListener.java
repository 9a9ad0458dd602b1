package dev.hindsight.query.projection;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * What the live projection has just committed, for dashboards' live stream: one {@link Change} per session,
 * decision set or signal a batch touched, published after the commit.
 */
@ApplicationScoped
public class ProjectionListener {

    /** Something a dashboard may want to re-read. */
    public record Change(String tenant, String kind, String id, Instant at) {
    }

    private final BroadcastProcessor<Change> changes = BroadcastProcessor.create();

    // synchronized: the three channels complete on different threads, and a processor takes its items one at a time.
    synchronized void projected(List<Change> batch) {
        for (Change change : batch) {
            changes.onNext(change);
        }
    }

    /** Every change from now on (hot: nothing is replayed). */
    public Multi<Change> changes() {
        return changes;
    }
}
