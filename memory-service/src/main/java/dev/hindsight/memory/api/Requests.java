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

    /** Project ids and session ids: what fits in a URL path segment without escaping. */
    public static final String ID = "[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}";

    private Requests() {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record RecordMemory(
            @NotBlank @Size(max = 200) String title,
            @Size(max = 2_000) String description,
            @NotBlank @Size(max = 20_000) String content,
            @NotNull @Pattern(regexp = "success|failure", message = "must be success or failure") String outcome,
            @Size(max = 32) List<@NotBlank @Size(max = 64) String> tags,
            @Size(max = 100) List<@NotNull @Pattern(regexp = ID) String> sourceSessionIds) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Search(
            @NotBlank @Size(max = 4_000) String query,
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
