package dev.hindsight.platform.redact;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.platform.tenant.TenantId;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * Redaction as each tenant's policy says: a service applies it to what it is about to publish, before it derives ids
 * or fingerprints from it (so an identical re-send is the same event). Under {@code keep}, everything passes as it is.
 */
@ApplicationScoped
public class Redactor {

    private static final SecretScrubber OPERATIONAL = new SecretScrubber();

    private final SecretScrubber scrubber = new SecretScrubber();
    private final Redaction redaction = new Redaction(scrubber);
    private final JsonRedaction json = new JsonRedaction(scrubber);
    private final RedactionConfig.Policy policy;
    private final Map<TenantId, RedactionConfig.Policy> byTenant = new HashMap<>();

    @Inject
    Redactor(RedactionConfig config) {
        this(config.policy() == RedactionConfig.Policy.REDACT, config.tenant());
    }

    private Redactor(boolean redactByDefault, Map<String, RedactionConfig.Policy> byTenant) {
        this.policy = redactByDefault ? RedactionConfig.Policy.REDACT : RedactionConfig.Policy.KEEP;
        byTenant.forEach((tenant, own) -> this.byTenant.put(TenantId.of(tenant), own));
    }

    /** Every tenant's secrets redacted (the default policy), as code outside a running service needs it. */
    public static Redactor redactingEveryTenant() {
        return new Redactor(true, Map.of());
    }

    /** {@code keeping}'s secrets kept as sent, every other tenant's redacted. */
    public static Redactor keeping(TenantId keeping) {
        return new Redactor(true, Map.of(keeping.value(), RedactionConfig.Policy.KEEP));
    }

    /** Whether {@code tenant}'s secrets are redacted. */
    public boolean redacts(TenantId tenant) {
        return byTenant.getOrDefault(tenant, policy) == RedactionConfig.Policy.REDACT;
    }

    /** {@code record}'s marked fields redacted in place when {@code tenant}'s policy says so; the record itself. */
    public <R extends SpecificRecord> R apply(TenantId tenant, R record) {
        return redacts(tenant) ? redaction.apply(record) : record;
    }

    /** Text as {@code tenant}'s policy says: among its values when it is a JSON document, else as free text. */
    public String text(TenantId tenant, String text) {
        return redacts(tenant) ? json.redact(text) : text;
    }

    /** A JSON tree's values redacted in place as {@code tenant}'s policy says. */
    public void tree(TenantId tenant, JsonNode node) {
        if (redacts(tenant) && node != null) {
            json.redactValues(node);
        }
    }

    /**
     * Operational text that may quote what a producer sent (a dead letter's reason, a job's last error), redacted
     * whatever the policy: it is not the data a tenant chose to keep.
     */
    public static String operational(String text) {
        return OPERATIONAL.scrub(text);
    }

    /**
     * {@code failure} as it may be logged: a copy naming its class, with its message and its causes' redacted and its
     * stack trace kept (a parser's message quotes the text it could not read).
     */
    public static Throwable operational(Throwable failure) {
        return operational(failure, 0);
    }

    private static Throwable operational(Throwable failure, int depth) {
        if (failure == null || depth > 16) {
            return null;
        }
        Throwable copy = new RedactedFailure(failure.getClass().getName() + ": "
                + operational(String.valueOf(failure.getMessage())), operational(failure.getCause(), depth + 1));
        copy.setStackTrace(failure.getStackTrace());
        return copy;
    }

    /** A failure's redacted copy, for the log. */
    private static final class RedactedFailure extends RuntimeException {

        RedactedFailure(String message, Throwable cause) {
            super(message, cause);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }
}
