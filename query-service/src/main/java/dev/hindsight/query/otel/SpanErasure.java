package dev.hindsight.query.otel;

import dev.hindsight.query.readmodel.Erasable;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/** Erasing sessions made of spans: their traces' spans, GenAI log records and the trace-to-session map. */
@ApplicationScoped
class SpanErasure implements Erasable {

    @Override
    public Uni<Void> erase(SqlClient tx, ReadModel model, Scope scope, Map<String, Long> erased) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String table : new String[] {"otel_log", "otel_span", "otel_trace"}) {
            chain = chain.chain(() -> Erasable.delete(tx, model, scope, table,
                    "DELETE FROM {rm}." + table + " WHERE tenant_id = $1",
                    "DELETE FROM {rm}." + table + " WHERE tenant_id = $1 AND trace_id = ANY($2)",
                    scope.traceIds(), erased));
        }
        return chain;
    }
}
