package dev.hindsight.memory.bank;

import dev.hindsight.platform.Hashing;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

/** An explicitly recorded memory (memory_record / POST .../memories), already validated. */
public record NewMemory(String title, String description, String content, String outcome, List<String> tags,
        List<String> sourceSessionIds) {

    /** This memory with {@code redact} applied to every text it holds: title, description, content and tags. */
    public NewMemory redacted(UnaryOperator<String> redact) {
        return new NewMemory(redact.apply(title), redact.apply(description), redact.apply(content), outcome,
                tags == null ? null : tags.stream().map(redact).toList(), sourceSessionIds);
    }

    /**
     * The memory's id, derived from what it says: the tenant, the project, its title, description, content and
     * outcome (tags and source sessions are about the memory, not the memory itself). Equal texts give equal ids, so
     * recording the same lesson again is the same memory; the tenant is part of it, so two tenants' identical texts
     * stay two memories. A name-based UUID (version 5 layout) over SHA-256.
     */
    public UUID identity(TenantId tenant, String project) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
        for (String part : new String[] {"explicit-memory/1", tenant.value(), project, title,
                description == null ? "" : description, content, outcome}) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            // Length-prefixed, so that no two different field lists hash the same bytes.
            sha.update(new byte[] {(byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16),
                (byte) (bytes.length >>> 8), (byte) bytes.length});
            sha.update(bytes);
        }
        return Hashing.nameBasedUuid(sha.digest(), 5);
    }
}
