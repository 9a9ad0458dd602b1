package dev.hindsight.ingest.security;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * An endpoint that someone forgot to annotate with a role or {@code @PermitAll}: part of the application only in
 * tests, to show that such an endpoint is denied to everyone (UnannotatedEndpointsTest).
 */
@Path("/v1/unannotated-probe")
public class UnannotatedProbe {

    @GET
    @Operation(hidden = true)
    public String read() {
        return "open";
    }

    @POST
    @Operation(hidden = true)
    public String write(String body) {
        return "open";
    }
}
