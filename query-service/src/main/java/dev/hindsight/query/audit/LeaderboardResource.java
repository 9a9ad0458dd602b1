package dev.hindsight.query.audit;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The classifier version leaderboard (design.md § Queries and leaderboard): per version, over the latest revision of
 * each decision set's evaluation, the number of evaluations, the mean Reality Alignment Score with its 95% interval,
 * and for shadow versions wins / ties / losses against the active decision on the same messages and a promotion
 * recommendation from the paired difference ({@link LeaderboardStats}), read by {@link LeaderboardQuery}.
 */
@Path("/v1/versions/leaderboard")
@Tag(name = "Audit")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.READ)
class LeaderboardResource {

    private final LeaderboardQuery leaderboard;
    private final TenantContext tenant;

    public LeaderboardResource(LeaderboardQuery leaderboard, TenantContext tenant) {
        this.leaderboard = leaderboard;
        this.tenant = tenant;
    }

    @GET
    @Operation(operationId = "getLeaderboard",
            summary = "Classifier versions ranked by Reality Alignment Score", description = "Optional from / to "
            + "(YYYY-MM-DD, evaluation time, to exclusive). Per version and role (active or shadow): evaluations, "
            + "mean score with its 95% interval; for shadows, wins / ties / losses against the active decision on "
            + "the same messages, the paired difference with its 95% interval, and a recommendation: promote only "
            + "when that interval is above zero over at least hindsight.query.leaderboard.min-evaluations (30).")
    @APIResponse(responseCode = "200", description = "Every version's standing",
            content = @Content(schema = @Schema(implementation = Leaderboard.class)))
    @APIResponse(responseCode = "400", description = "Invalid date", content = @Content(mediaType = Problem.MEDIA_TYPE))
    @Parameter(name = "from", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING, format = "date"))
    @Parameter(name = "to", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING, format = "date"))
    public Uni<JsonObject> leaderboard(@QueryParam("from") String from, @QueryParam("to") String to) {
        return leaderboard.leaderboard(tenant.tenant(), from, to);
    }

    // The answer is built as JSON (LeaderboardQuery); these records only describe it in the published document.

    /** The leaderboard: every version evaluated in the window. */
    public record Leaderboard(List<Standing> versions, long minEvaluations) {
    }

    /**
     * A version's standing: its mean Reality Alignment Score with a 95% interval (null below two evaluations); a
     * shadow version also its record against the active decision and what that says.
     */
    public record Standing(String version, @Schema(enumeration = {"active", "shadow"}) String role, long evaluations,
            double meanScore, List<Double> scoreCi95, Long wins, Long ties, Long losses, Double meanDifference,
            List<Double> differenceCi95,
            @Schema(enumeration = {"promote", "do_not_promote", "inconclusive", "keep_shadowing"})
            String recommendation) {
    }
}
