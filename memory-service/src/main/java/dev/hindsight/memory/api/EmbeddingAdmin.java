package dev.hindsight.memory.api;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hindsight.memory.bank.VectorKeeper;
import dev.hindsight.memorymodel.search.SearchModel;
import dev.hindsight.platform.auth.Scopes;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Operators follow a change of embedding model here (design.md § Re-embedding): which model searches use, the
 * configured one, and how many memories each model's vectors cover. The counts span every tenant, so this needs an
 * operator key with the admin scope.
 */
@Path("/v1/admin/embeddings")
@Tag(name = "Operations")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.ADMIN)
class EmbeddingAdmin {

    /** The vector generations as counted now. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Status(String searchModel, String configuredModel, boolean building, long memories,
            Map<String, Long> vectors, Instant searchModelSince) {

        static Status of(SearchModel.State state) {
            return new Status(state.current(), state.preferred(), state.building(), state.memories(), state.vectors(),
                    state.since());
        }
    }

    private final VectorKeeper generations;

    public EmbeddingAdmin(VectorKeeper generations) {
        this.generations = generations;
    }

    @GET
    @Operation(operationId = "getEmbeddings", summary = "Vector generations",
            description = "search_model: the model searches embed with now; configured_model: "
                    + "hindsight.memory.embedding.model. While building, the configured model's vectors are being "
                    + "made in the background (vectors per model against memories) and searches switch when they "
                    + "cover every memory; the previous model's vectors are deleted a while later.")
    public Uni<Status> status() {
        return generations.refresh().map(Status::of);
    }
}
