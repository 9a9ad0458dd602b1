package dev.hindsight.memory.api;

import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/** Request bodies of the memory API, with their limits (a violation is a 400 naming the field). */
public final class Requests {

    /**
     * Text the embedding model can embed: at least one character above U+0020. Spaces and control characters alone
     * are nothing to it ({@code @NotBlank} and {@link String#isBlank} let controls such as U+0001 through, and the
     * model then fails). {@link #hasText} is the same rule where no bean validation runs (MCP tools). Written without
     * inline flags, as ECMA 262 reads it too: the published OpenAPI document carries it as the field's pattern.
     */
    public static final String TEXT = "[\\x00-\\x20]*[^\\x00-\\x20][\\s\\S]*";
    static final String TEXT_MESSAGE = "must contain text, not only spaces or control characters";

    /** {@link #TEXT} as a test. */
    public static boolean hasText(String value) {
        return value != null && !value.trim().isEmpty();
    }

    /**
     * Project ids and session ids: what fits in a URL path segment without escaping. Anchored: the published OpenAPI
     * document carries it, and JSON Schema patterns match anywhere in a value.
     */
    public static final String ID = "^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$";

    private Requests() {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record RecordMemory(
            @NotBlank @Pattern(regexp = TEXT, message = TEXT_MESSAGE) @Size(max = 200) String title,
            @Size(max = 2_000) String description,
            @NotBlank @Pattern(regexp = TEXT, message = TEXT_MESSAGE) @Size(max = 20_000) String content,
            @NotNull @Pattern(regexp = "^(success|failure)$", message = "must be success or failure") String outcome,
            @Size(max = 32) List<@NotBlank @Size(max = 64) String> tags,
            @Size(max = 100) List<@NotNull @Pattern(regexp = ID) String> sourceSessionIds) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Search(
            @NotBlank @Pattern(regexp = TEXT, message = TEXT_MESSAGE) @Size(max = 4_000) String query,
            @Min(1) @Max(50) Integer limit,
            @Pattern(regexp = ID) String sessionId) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Feedback(@NotNull Boolean helpful, @Pattern(regexp = ID) String sessionId) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Outcome(@NotNull Boolean succeeded, @Pattern(regexp = ID) String sessionId) {
    }
}
