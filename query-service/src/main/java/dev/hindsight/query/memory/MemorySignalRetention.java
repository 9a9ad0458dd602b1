package dev.hindsight.query.memory;

import dev.hindsight.query.readmodel.Expiry;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A memory's individual signals are kept 90 days by default (event time), as memory-service keeps them; the memory's
 * totals keep counting them.
 */
@ApplicationScoped
class MemorySignalRetention implements Expiry {

    private static final String SIGNALS = "DELETE FROM {rm}.memory_signal /* every tenant: retention */ "
            + "WHERE occurred_at < now() - make_interval(secs => $1)";

    private final Duration keep;

    MemorySignalRetention(
            @ConfigProperty(name = "hindsight.query.retention.memory-signals", defaultValue = "90d") Duration keep) {
        this.keep = keep;
    }

    @Override
    public Uni<Void> expire(SqlClient client, ReadModel model, Map<String, Long> deleted) {
        return Expiry.delete(client, model, "memory_signal", SIGNALS, keep, deleted);
    }
}
