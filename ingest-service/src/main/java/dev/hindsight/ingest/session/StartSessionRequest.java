package dev.hindsight.ingest.session;

import dev.hindsight.ingest.request.EventIds;
import dev.hindsight.ingest.request.JsonBody;
import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Body of {@code POST /v1/sessions}: a session of one kind, with that kind's attributes. */
@Schema(name = "StartSession", example = """
        {"kind": "trading", "started_at": "2025-10-02T10:00:00Z",
         "trading": {"job_id": "550e8400-e29b-41d4-a716-446655440000", "date": "2025-10-02", "model": "gpt-5"}}""")
public record StartSessionRequest(
        @Size(max = 128) @Pattern(regexp = EventIds.PATTERN, message = EventIds.MESSAGE) String sessionId,
        UUID eventId,
        @NotNull Kind kind,
        OffsetDateTime startedAt,
        @Valid Trading trading,
        @Valid Chat chat,
        @Valid Debug debug,
        @Size(min = 1, max = 256) @Schema(description = "The person the session is about, as an opaque id (never an "
                + "e-mail address or a name): its events are sealed under a key of that person, and erasing the "
                + "person finds the session by it.") String subject,
        @Size(max = 32) Map<@Size(max = 64) String, @NotNull @Size(max = 512) String> labels) implements JsonBody {

    /** What kind of agent work the session is. */
    public enum Kind {
        @JsonProperty("trading") TRADING,
        @JsonProperty("chat") CHAT,
        @JsonProperty("debug") DEBUG;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A model-day trading session, unique per (job_id, date, model) (design.md § Model-days). */
    public record Trading(@NotBlank @Size(max = 128) String jobId, @NotNull LocalDate date,
            @NotBlank @Size(max = 128) String model) {
    }

    /** A chat conversation (design.md § Model-days). */
    public record Chat(@Size(max = 128) String agent, @Size(max = 128) String model, @Size(max = 512) String title) {
    }

    /** A developer debugging trace (design.md § Events). */
    public record Debug(@NotBlank @Size(max = 128) String developerId, @NotBlank @Size(max = 128) String taskId,
            @Size(max = 65_536) String taskDescription, @Size(max = 2048) String repoUrl,
            @Size(max = 128) String repoCommitHash) {
    }
}
