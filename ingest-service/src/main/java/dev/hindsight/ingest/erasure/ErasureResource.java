package dev.hindsight.ingest.erasure;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Erasing sessions, a data subject or the whole tenant (ADR 0028), and what became of an erasure. The caller's
 * tenant only; scope {@code erase}, which no other scope implies.
 */
@Path("/v1/erasures")
@Tag(name = "Erasure")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.ERASE)
public class ErasureResource {

    /** What a read model deleted. */
    public record Applied(String service, Instant appliedAt, Map<String, Long> erased) {
    }

    /** An erasure as the caller sees it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "Erasure")
    public record ErasureStatus(
            String erasureId,
            @Schema(enumeration = {"pending", "complete"},
                    description = "complete once every read model has applied it") String status,
            @Schema(enumeration = {"sessions", "subject", "tenant", "retention"}) String selector,
            Instant requestedAt,
            @Schema(description = "The id of the API key that asked") String requestedBy,
            @Schema(description = "Sessions, messages (of decision sets and signals), OpenTelemetry traces and data "
                    + "keys it covers; for a tenant, the keys only") Map<String, Integer> covers,
            @Schema(description = "Each read model that has applied it, when, and how many of each thing it deleted")
            List<Applied> appliedBy,
            @Schema(description = "The read models that have not applied it yet") List<String> pending) {

        static ErasureStatus of(ErasureLog.Erasure erasure) {
            List<Applied> applied = new ArrayList<>();
            List<String> pending = new ArrayList<>();
            for (String service : ErasureLog.READ_MODELS) {
                ErasureLog.Applied done = erasure.applied().get(service);
                if (done == null) {
                    pending.add(service);
                } else {
                    applied.add(new Applied(service, done.at(), done.erased()));
                }
            }
            return new ErasureStatus(erasure.id(), erasure.complete() ? "complete" : "pending",
                    erasure.selector().toLowerCase(java.util.Locale.ROOT), erasure.requestedAt(),
                    erasure.principal(), Map.of("sessions", erasure.sessionIds().size(),
                            "messages", erasure.messageIds().size(), "traces", erasure.traceIds().size(),
                            "data_keys", erasure.destroyedKeys().size()), applied, pending);
        }
    }

    private final Erasures erasures;
    private final ErasureLog log;
    private final TenantContext tenant;

    public ErasureResource(Erasures erasures, ErasureLog log, TenantContext tenant) {
        this.erasures = erasures;
        this.log = log;
        this.tenant = tenant;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "erase", summary = "Erase sessions, a data subject or the whole tenant",
            description = "Destroys the data keys of everything named (so nothing of it can be read from the event "
                    + "log any more), then every read model deletes what it holds of it and refuses it from then "
                    + "on: sessions with their messages, steps, summaries, verdicts, spans, decision sets and signals, "
                    + "and the memories whose text came from them. Events sent later for an erased session are refused "
                    + "with 410. A whole tenant's API keys stop working once the erasure is complete.")
    @APIResponse(responseCode = "202", description = "Accepted: the keys are destroyed and the read models apply it; "
            + "follow Location", content = @Content(mediaType = "application/json",
                    schema = @Schema(implementation = ErasureStatus.class)))
    @APIResponse(responseCode = "400", description = "Invalid request", content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "401", description = "No or unknown API key", content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "404", description = "Nothing of what was named is recorded: nothing was erased",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "409", description = "The same subject or tenant is being erased right now",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "503", description = "query-service or Kafka did not answer: nothing was erased",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> erase(@Valid @NotNull ErasureRequest request,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        TenantId of = tenant.tenant();
        return erasures.erase(of, tenant.principal(), authorization, request).map(ErasureResource::accepted);
    }

    @GET
    @Path("/{erasureId}")
    @Operation(operationId = "getErasure", summary = "What became of an erasure",
            description = "pending until every read model (query-service, evaluation-service, memory-service) has "
                    + "applied it, then complete; with what each deleted.")
    @APIResponse(responseCode = "200", description = "The erasure", content = @Content(
            mediaType = "application/json", schema = @Schema(implementation = ErasureStatus.class)))
    @APIResponse(responseCode = "404", description = "No such erasure in this tenant",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<ErasureStatus> get(@PathParam("erasureId") @Size(max = 64) String erasureId) {
        TenantId of = tenant.tenant();
        return log.get(of, erasureId).map(e -> Uni.createFrom().item(ErasureStatus.of(e)))
                // Accepted by another replica and not read here yet: read the log to its end before saying no.
                .orElseGet(() -> Uni.createFrom().completionStage(log::readToEnd)
                        .map(ignored -> log.get(of, erasureId).map(ErasureStatus::of)
                                .orElseThrow(() -> new ProblemException(Problem.of(404, "Not found",
                                        "No erasure " + erasureId + " in this tenant")))));
    }

    /** 202 with the erasure as it stands and where to follow it. */
    public static Response accepted(ErasureLog.Erasure erasure) {
        return Response.accepted(ErasureStatus.of(erasure))
                .header("Location", "/v1/erasures/" + erasure.id()).build();
    }
}
