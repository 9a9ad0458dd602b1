package dev.hindsight.memorymodel.search;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Which model's vectors a search uses when more than one model's are stored (design.md § Re-embedding). A service
 * configured with a new model builds that model's vectors in the background while searches keep using the previous
 * model's; searches switch when the new generation covers every memory. The rule needs no shared state, so every
 * replica and every service that searches (memory-service, query-service's console) decides the same from its own
 * tables: the model whose vectors cover the most memories, the configured one on a tie.
 */
public final class VectorGenerations {

    private VectorGenerations() {
    }

    /**
     * @param preferred the configured model
     * @param vectors how many memories have a vector of each model (a memory has at most one per model)
     */
    public static String searchModel(String preferred, Map<String, Long> vectors) {
        String best = preferred;
        long most = vectors.getOrDefault(preferred, 0L);
        for (Map.Entry<String, Long> model : vectors.entrySet()) {
            if (model.getValue() > most) {
                best = model.getKey();
                most = model.getValue();
            }
        }
        return best;
    }

    /**
     * The version of a memory's text that a vector was computed from: md5 (hex) of its description and content (the
     * parts a merge changes), in the form PostgreSQL computes as {@code md5(coalesce(description, '') || chr(31) ||
     * content)}, so a projection can check in SQL that the memory still says what was embedded.
     */
    public static String textVersion(String description, String content) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(
                    ((description == null ? "" : description) + '\u001f' + content).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has MD5", e);
        }
    }

    /** The SQL expression equal to {@link #textVersion} of a row with columns {@code description} and {@code content}. */
    public static final String TEXT_VERSION_SQL = "md5(coalesce(description, '') || chr(31) || content)";
}
