package dev.hindsight.query.live;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.ChangeFeed;
import io.smallrye.mutiny.Multi;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * Server-sent events for dashboards: one event per session or decision set the projection (of any replica) has just
 * committed for the caller's tenant ({@code {"kind", "id", "at"}}), so a dashboard re-reads only what changed. A comment-free
 * heartbeat event ({@code kind = "heartbeat"}) every 15 s keeps proxies from closing an idle stream.
 */
@Path("/v1/stream")
@Tag(name = "Live")
@RolesAllowed(Scopes.READ)
class LiveStream {

    /** What changed. */
    public record Event(String kind, String id, Instant at) {
    }

    /** Changes kept for a stream whose client has not yet taken them. */
    static final int BUFFERED = 10_000;

    private final ChangeFeed feed;
    private final TenantContext tenant;

    public LiveStream(ChangeFeed feed, TenantContext tenant) {
        this.feed = feed;
        this.tenant = tenant;
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(operationId = "streamChanges",
            summary = "Newly projected sessions and decision sets, as server-sent events")
    public Multi<Event> stream() {
        TenantId tenantId = tenant.tenant();
        // A committed batch announces all its sessions at once, faster than the response takes them one write at a
        // time: without a buffer the first burst would fail the subscription and end the stream silently. A client more
        // than BUFFERED changes behind is dropped instead (EventSource clients reconnect, then re-read).
        Multi<Event> changes = feed.changes().onOverflow().buffer(BUFFERED)
                .filter(change -> tenantId.equals(change.tenant()))
                .map(change -> new Event(change.kind(), change.id(), change.at()));
        Multi<Event> heartbeats = Multi.createFrom().ticks().every(Duration.ofSeconds(15))
                .map(tick -> new Event("heartbeat", null, Instant.now()));
        return Multi.createBy().merging().streams(changes, heartbeats);
    }
}
