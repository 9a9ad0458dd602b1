package dev.hindsight.query.console;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** {@code GET /} is the console: its sessions list. */
@Path("/")
@PermitAll
class RootResource {

    @GET
    @Operation(hidden = true)
    public Response root() {
        return Response.seeOther(URI.create(ConsolePaths.SESSIONS)).build();
    }
}
