package dev.hindsight.platform.redact;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;

/**
 * What becomes of the secrets in what a tenant's producers send (docs/design.md § Redaction):
 *
 * <pre>
 * hindsight.redaction.policy=redact              # every tenant's, unless named below
 * hindsight.redaction.tenant.acme=keep           # acme's secrets are kept as sent
 * </pre>
 */
@ConfigMapping(prefix = "hindsight.redaction")
interface RedactionConfig {

    /** The policy of every tenant not named in {@link #tenant()}. */
    @WithDefault("redact")
    Policy policy();

    /** Each named tenant's own policy. */
    Map<String, Policy> tenant();

    /** {@code redact}: secrets are replaced by {@code [REDACTED:<kind>]} before the log; {@code keep}: as sent. */
    enum Policy {
        REDACT, KEEP
    }
}
