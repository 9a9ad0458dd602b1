package dev.hindsight.query.session;

import dev.hindsight.platform.MessageFingerprint;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.session.MessageConflictResource.Candidate;
import dev.hindsight.query.session.MessageConflictResource.Conflict;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds recorded messages that differ from candidates at the same index: one query for the whole list, one
 * primary-key lookup per candidate. Written as a LATERAL subquery with LIMIT 1 so that the planner cannot turn it into
 * a join: as a join, connections that had run it for a while came to plan it as scans over many index entries per
 * candidate, and it dominated the database's time under load.
 */
@ApplicationScoped
class MessageConflictRepository {

    // The recorded message's fingerprint is computed from its row only when the index is taken (rare: appends are to
    // new indexes), so nothing extra is stored per message.
    private static final String FIND = """
            SELECT i.n, m.role
            FROM unnest($2::text[], $3::int[], $4::text[]) WITH ORDINALITY AS i(session_id, message_index, fingerprint, n)
            CROSS JOIN LATERAL (SELECT role, content, tool_name, tool_input FROM {rm}.message
                                WHERE tenant_id = $1 AND session_id = i.session_id AND message_index = i.message_index
                                LIMIT 1) m
            WHERE %s <> i.fingerprint
            ORDER BY i.n""".formatted(MessageFingerprint.sql("m"));

    private final Pool pool;
    private final Generations generations;

    public MessageConflictRepository(Pool pool, Generations generations) {
        this.pool = pool;
        this.generations = generations;
    }

    /** The candidates (by position, from 0) that conflict with what {@code tenantId} has recorded. */
    public Uni<List<Conflict>> conflicts(TenantId tenantId, List<Candidate> candidates) {
        int size = candidates.size();
        if (size == 0) {
            return Uni.createFrom().item(List.of());
        }
        String[] sessions = new String[size];
        Integer[] indexes = new Integer[size];
        String[] fingerprints = new String[size];
        for (int i = 0; i < size; i++) {
            Candidate candidate = candidates.get(i);
            sessions[i] = candidate.sessionId();
            indexes[i] = candidate.messageIndex();
            fingerprints[i] = candidate.fingerprintOrComputed();
        }
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(FIND))
                .execute(Tuple.of(tenantId.value(), sessions, indexes, fingerprints))).map(rows -> {
                    List<Conflict> conflicts = new ArrayList<>();
                    for (Row row : rows) {
                        int index = row.getLong("n").intValue() - 1;
                        conflicts.add(new Conflict(index, sessions[index], indexes[index], row.getString("role")));
                    }
                    return conflicts;
                });
    }
}
