package dev.hindsight.query.console;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** The console's sign-in (ADR 0011). */
@ConfigMapping(prefix = "hindsight.console")
interface ConsoleConfig {

    /**
     * Key of the HMAC that signs the console cookie: the same on every replica, at least 32 characters. Without it a
     * replica signs with a random key of its own, so a sign-in holds on that replica until it restarts.
     */
    Optional<String> cookieSecret();

    /** How long a sign-in lasts. */
    @WithDefault("8H")
    Duration signInLifetime();
}
