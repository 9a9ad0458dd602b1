package dev.hindsight.query.trace;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadCache;
import dev.hindsight.query.readmodel.Rendered;
import dev.hindsight.query.session.SessionView;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * A debugging trace in the JSON shape it is uploaded in (design.md § Trace format: root metadata,
 * {@code Final_code_diff} with its capital F, events in trace order with a normalized {@code timestamp}) and its
 * {@code qa_results}. One query, kept rendered until the trace changes ({@link ReadCache}).
 */
@Path("/v1/traces")
@Tag(name = "Traces")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.READ)
class TraceResource {

    private final TraceRepository traces;
    private final Generations generations;
    private final TenantContext tenant;
    private final ReadCache cache;

    public TraceResource(TraceRepository traces, Generations generations, TenantContext tenant, ReadCache cache) {
        this.traces = traces;
        this.generations = generations;
        this.tenant = tenant;
        this.cache = cache;
    }

    @GET
    @Path("/{traceId}")
    @Operation(operationId = "getTrace",
            summary = "A debugging trace with its QA results", description = "qa_results.status is pending until "
            + "the QA judge has scored the trace, then completed (score 0-100, rubric, judged_at) or failed (reason).")
    @APIResponse(responseCode = "200", description = "The trace (with an ETag; If-None-Match gets 304 while unchanged)",
            content = @Content(schema = @Schema(implementation = Trace.class)))
    @APIResponse(responseCode = "304", description = "Unchanged since the ETag given in If-None-Match")
    @APIResponse(responseCode = "404", description = "No such trace for this tenant",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @Parameter(name = "If-None-Match", in = ParameterIn.HEADER, schema = @Schema(type = SchemaType.STRING),
            description = "An ETag this endpoint answered with: 304 while the answer is unchanged")
    public Uni<Response> get(@PathParam("traceId") @Size(max = 128) String traceId, @Context Request request) {
        TenantId tenantId = tenant.tenant();
        return generations.current().chain(rm -> cache.trace(tenantId, traceId, rm.generation(),
                        () -> traces.find(rm, tenantId, traceId).map(found -> Rendered.of(found
                                .orElseThrow(() -> ProblemException.notFound("No trace " + traceId))
                                .toBuffer().getBytes(), rm.generation(), Set.of(traceId)))))
                .map(answer -> answer.respond(request));
    }

    // The answer is built as JSON (TraceRepository); these records only describe it in the published document.

    /** A debugging trace as recorded, with its events in order and the QA judge's results. */
    public record Trace(String traceId, String developerId, String taskId, String taskDescription, String repoUrl,
            String repoCommitHash, OffsetDateTime startTimestamp, OffsetDateTime endTimestamp,
            @JsonProperty("Final_code_diff") String finalCodeDiff, String outcome, List<SessionView.Activity> events,
            TraceQaResults qaResults) {
    }

    /** pending until the judge has scored the trace; then completed (score, rubric) or failed (reason). */
    public record TraceQaResults(@Schema(enumeration = {"pending", "completed", "failed"}) String status, Double score,
            @Schema(type = SchemaType.OBJECT, description = "The judge's scores, dimension by dimension")
            JsonNode rubric,
            OffsetDateTime judgedAt, String reason) {
    }
}
