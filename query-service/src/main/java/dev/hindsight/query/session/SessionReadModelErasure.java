package dev.hindsight.query.session;

import dev.hindsight.query.readmodel.Erasable;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/** Erasing sessions: the sessions, their messages and summaries, positions and trace activities. */
@ApplicationScoped
class SessionReadModelErasure implements Erasable {

    @Override
    public Uni<Void> erase(SqlClient tx, ReadModel model, Scope scope, Map<String, Long> erased) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String table : new String[] {"message", "message_summary", "position", "activity", "session"}) {
            chain = chain.chain(() -> Erasable.delete(tx, model, scope, table,
                    "DELETE FROM {rm}." + table + " WHERE tenant_id = $1",
                    "DELETE FROM {rm}." + table + " WHERE tenant_id = $1 AND session_id = ANY($2)",
                    scope.sessionIds(), erased));
        }
        return chain;
    }
}
