package dev.hindsight.platform.auth;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/**
 * Authentication by the SHA-256 of an API key, for a credential that proves its holder presented the key earlier
 * without holding the key itself (the console's signed cookie). The key is looked up again on every request, so a
 * revoked or expired key stops working at once.
 */
public final class KeyHashAuthenticationRequest extends BaseAuthenticationRequest {

    private final String sha256;

    public KeyHashAuthenticationRequest(String sha256) {
        this.sha256 = sha256;
    }

    public String sha256() {
        return sha256;
    }
}
