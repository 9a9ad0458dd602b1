package dev.hindsight.query.erasure;

import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.erasure.ErasureScopeResource.Scope;
import dev.hindsight.query.erasure.ErasureScopeResource.Selector;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** What an erasure covers, read from the current generation (ADR 0028). */
@ApplicationScoped
class ErasureScopes {

    private static final String SESSIONS_BY_ID = """
            SELECT session_id FROM {rm}.session WHERE tenant_id = $1 AND session_id = ANY($2)
            UNION SELECT session_id FROM {rm}.decision_set WHERE tenant_id = $1 AND session_id = ANY($2)
            UNION SELECT session_id FROM {rm}.behavior_signal WHERE tenant_id = $1 AND session_id = ANY($2)
            UNION SELECT session_id FROM {rm}.otel_trace WHERE tenant_id = $1 AND session_id = ANY($2)""";
    private static final String SESSIONS_OF_SUBJECT = "SELECT session_id FROM {rm}.session "
            + "WHERE tenant_id = $1 AND attributes ? 'subject' AND attributes ->> 'subject' = $2";
    private static final String SESSIONS_OF_TENANT = "SELECT count(*) FROM {rm}.session WHERE tenant_id = $1";
    private static final String MESSAGES = """
            SELECT message_id FROM {rm}.decision_set WHERE tenant_id = $1 AND session_id = ANY($2)
            UNION SELECT message_id FROM {rm}.behavior_signal WHERE tenant_id = $1 AND session_id = ANY($2)""";
    private static final String TRACES = "SELECT trace_id FROM {rm}.otel_trace "
            + "WHERE tenant_id = $1 AND session_id = ANY($2)";

    private final Pool pool;
    private final Generations generations;

    ErasureScopes(Pool pool, Generations generations) {
        this.pool = pool;
        this.generations = generations;
    }

    /** The sessions {@code selector} names in {@code tenant}, with their messages' and traces' ids. */
    Uni<Scope> resolve(TenantId tenant, Selector selector) {
        return generations.current().chain(model -> {
            if (Boolean.TRUE.equals(selector.tenant())) {
                return pool.preparedQuery(model.sql(SESSIONS_OF_TENANT)).execute(Tuple.of(tenant.value()))
                        .map(rows -> new Scope(List.of(), List.of(), List.of(), rows.iterator().next().getLong(0)));
            }
            Uni<List<String>> sessions = selector.subject() != null
                    ? ids(model, SESSIONS_OF_SUBJECT, Tuple.of(tenant.value(), selector.subject()))
                    : ids(model, SESSIONS_BY_ID, Tuple.of(tenant.value(),
                            selector.sessionIds().toArray(String[]::new)));
            return sessions.chain(found -> {
                if (found.isEmpty()) {
                    return Uni.createFrom().item(new Scope(List.of(), List.of(), List.of(), 0));
                }
                Tuple byIds = Tuple.of(tenant.value(), found.toArray(String[]::new));
                return ids(model, MESSAGES, byIds).chain(messages -> ids(model, TRACES, byIds)
                        .map(traces -> new Scope(found, messages, traces, found.size())));
            });
        });
    }

    private Uni<List<String>> ids(ReadModel model, String sql, Tuple args) {
        return pool.preparedQuery(model.sql(sql)).execute(args).map(rows -> {
            Set<String> ids = new LinkedHashSet<>();
            for (Row row : rows) {
                ids.add(row.getString(0));
            }
            return new ArrayList<>(ids);
        });
    }
}
