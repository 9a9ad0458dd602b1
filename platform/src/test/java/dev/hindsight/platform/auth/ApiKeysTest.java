package dev.hindsight.platform.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.platform.Hashing;
import dev.hindsight.platform.tenant.TenantId;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiKeysTest {

    private final ApiKeys keys = new ApiKeys(Map.of(
            "ci", key(Hashing.sha256Hex("secret-ci"), "acme", Set.of("ingest")),
            "ops", key(Hashing.sha256Hex("secret-ops").toUpperCase() + "  ", "acme", Set.of("read", "admin"))));

    @Test
    void knownTokenGrantsItsTenantAndScopes() {
        assertThat(keys.find("secret-ci")).hasValueSatisfying(grant -> {
            assertThat(grant.keyId()).isEqualTo("ci");
            assertThat(grant.tenant()).isEqualTo(TenantId.of("acme"));
            assertThat(grant.scopes()).containsExactly("ingest");
        });
    }

    @Test
    void configuredHashIsMatchedWhateverItsCaseAndSurroundingSpace() {
        assertThat(keys.find("secret-ops")).map(ApiKeys.Grant::keyId).hasValue("ops");
    }

    @Test
    void unknownBlankOrMissingTokensGrantNothing() {
        assertThat(keys.find("secret-cI")).isEmpty();
        assertThat(keys.find("")).isEmpty();
        assertThat(keys.find("   ")).isEmpty();
        assertThat(keys.find(null)).isEmpty();
    }

    @Test
    void theHashItselfIsNotAToken() {
        assertThat(keys.find(Hashing.sha256Hex("secret-ci"))).isEmpty();
    }

    @Test
    void sha256MatchesTheKnownVector() {
        assertThat(Hashing.sha256Hex("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    private static AuthConfig.ApiKey key(String sha256, String tenant, Set<String> scopes) {
        return new AuthConfig.ApiKey() {
            @Override
            public String sha256() {
                return sha256;
            }

            @Override
            public String tenant() {
                return tenant;
            }

            @Override
            public Set<String> scopes() {
                return scopes;
            }
        };
    }
}
