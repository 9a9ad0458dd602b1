package dev.hindsight.ingest.datakeys;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.DataKeyRewrap;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;

/**
 * A key-encryption-key rotation's second step (docs/deploy: rotating the master key): once every service has the new
 * master key version and it is the current one, each tenant's data keys wrapped under an older version are re-wrapped
 * under it, after which the older version can be removed.
 */
@Path("/v1/admin/data-keys")
@Tag(name = "Data keys")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.ADMIN)
class DataKeyResource {

    private static final Logger LOG = Logger.getLogger(DataKeyResource.class);

    private final TenantContext tenant;
    private final DataKeyRewrap rewrap;

    DataKeyResource(TenantContext tenant, Kms kms, DataKeyIssuer issuer,
            @Identifier("default-kafka-broker") Map<String, Object> kafka, Config config) {
        this.tenant = tenant;
        this.rewrap = new DataKeyRewrap(kms, issuer, kafka, config);
    }

    /** What a re-wrap did. */
    public record Rewrapped(
            @JsonProperty("keys") int keys,
            @JsonProperty("rewrapped") int rewrapped,
            @JsonProperty("destroyed_again") int destroyedAgain,
            @JsonProperty("kek_version") int kekVersion) {
    }

    @POST
    @Path("/rewrap")
    @Operation(operationId = "rewrapDataKeys", summary = "Re-wrap the caller's tenant's data keys under the current "
            + "key-encryption key", description = "Every data key of the tenant wrapped under an older master key "
            + "version is published again, wrapped under the current one, with the same id and material. Safe to "
            + "repeat; a key destroyed meanwhile stays destroyed (destroyed_again counts the destructions published "
            + "again after a re-wrapping).")
    @APIResponse(responseCode = "200", description = "Done", content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = Rewrapped.class)))
    public Uni<Rewrapped> rewrap() {
        var caller = tenant.tenant();
        // Reads the whole key topic twice: on a worker thread, never the event loop.
        return Uni.createFrom().item(() -> rewrap.run(caller)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .map(result -> {
                    LOG.infof("Data keys of tenant %s re-wrapped under KEK version %d: %d of %d, %d destroyed again",
                            caller.value(), result.kekVersion(), result.rewrapped(), result.keys(),
                            result.destroyedAgain());
                    return new Rewrapped(result.keys(), result.rewrapped(), result.destroyedAgain(),
                            result.kekVersion());
                });
    }
}
