package dev.hindsight.ingest.erasure;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hindsight.ingest.request.EventIds;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What to erase: exactly one of sessions by id (a trace is a session), one data subject, or the whole tenant. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(description = "Exactly one of session_ids, subject or tenant: true.")
public record ErasureRequest(
        @Schema(description = "Sessions (or traces) to erase, by id, with everything derived from them")
        @Size(min = 1, max = 1000) List<@NotNull @Size(max = 128) @Pattern(regexp = EventIds.PATTERN) String> sessionIds,
        @Schema(description = "The data subject (as named by `subject` on a session, or `user.id` on spans) whose "
                + "sessions are all erased")
        @Size(min = 1, max = 256) String subject,
        @Schema(description = "true erases the whole tenant; its API keys stop working once the erasure is complete")
        Boolean tenant) {

    @AssertTrue(message = "needs exactly one of session_ids, subject, tenant: true")
    @JsonIgnore
    @Schema(hidden = true)
    boolean isOneSelector() {
        return (sessionIds != null ? 1 : 0) + (subject != null ? 1 : 0) + (Boolean.TRUE.equals(tenant) ? 1 : 0) == 1;
    }

    /** Whether the whole tenant is erased. */
    public boolean wholeTenant() {
        return Boolean.TRUE.equals(tenant);
    }

    /** Whether it names a person or the tenant (at most one such erasure runs at a time per replica). */
    boolean subjectOrTenant() {
        return subject != null || wholeTenant();
    }

    /** The same selector as query-service's erasure-scope question takes it. */
    ErasureRequest forQuery() {
        return this;
    }
}
