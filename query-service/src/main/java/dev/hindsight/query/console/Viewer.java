package dev.hindsight.query.console;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.tenant.TenantId;
import java.util.Set;

/** Who is reading the console: the key they signed in with, its tenant and scopes. */
public record Viewer(TenantId tenant, String keyId, Set<String> scopes) {

    public boolean admin() {
        return scopes.contains(Scopes.ADMIN);
    }
}
