package dev.hindsight.platform.erasure;

import io.smallrye.mutiny.Uni;
import java.util.Map;
import java.util.Optional;

/**
 * What a service with a read model does with an erasure (ADR 0028): deletes everything it holds of the erasure's
 * sessions, messages and traces (or of the whole tenant), keeps the erased ids so that nothing brings them back, and
 * records the erasure as applied, all in one transaction. A service has at most one.
 */
public interface ErasureApplier {

    /**
     * Applies {@code erasure} unless this service's database has it recorded already: the counts of what it deleted,
     * by name, or empty when it was applied before (by another replica, or before a restart). Called again for every
     * erasure at each start, so a database restored from a backup older than an erasure gets it again.
     */
    Uni<Optional<Map<String, Long>>> apply(ErasureLog.Erasure erasure);
}
