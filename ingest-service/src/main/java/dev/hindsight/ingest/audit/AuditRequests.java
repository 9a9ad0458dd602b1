package dev.hindsight.ingest.audit;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Audit payloads: DECISION_SET_CREATED and USER_BEHAVIOR_SIGNAL (design.md § Decision sets,
 * design.md § Behaviour signals).
 */
final class AuditRequests {

    private AuditRequests() {
    }

    /** The active decision and every shadow decision for one message. */
    public record DecisionSet(
            UUID eventId,
            @Size(max = 128) String decisionSetId,
            @NotBlank @Size(max = 128) String messageId,
            @NotBlank @Size(max = 128) String sessionId,
            @NotNull @Size(max = 65_536) String questionText,
            Long questionHash,
            @NotBlank @Size(max = 128) String activeVersion,
            @Size(max = 32) List<@NotBlank @Size(max = 128) String> shadowVersions,
            @NotNull @Valid Decision activeDecision,
            @Size(max = 32) List<@NotNull @Valid Decision> shadowDecisions,
            JsonNode contextSnapshot,
            @Size(max = 64) String timestamp) {
    }

    /** One classifier's decision. */
    public record Decision(
            @NotBlank @Size(max = 128) String infoNeedType,
            @NotBlank @Size(max = 128) String decisionAction,
            @Pattern(regexp = "^(low|medium|high)$", message = "must be one of low, medium, high")
            String confidenceLevel,
            @Size(max = 65_536) String reasoning,
            JsonNode ruleSignals,
            JsonNode llmConfidence,
            @Size(max = 128) String version) {
    }

    /** How the user reacted to the response to a message. */
    public record BehaviorSignal(
            UUID eventId,
            @NotBlank @Size(max = 128) String messageId,
            @NotBlank @Size(max = 128) String sessionId,
            @NotNull SignalTypeName signalType,
            @Schema(implementation = SignalDataFields.class, nullable = true) JsonNode signalData,
            @Size(max = 64) String timestamp) {
    }

    // The wrapped forms and signal_data's fields, for the published document only: bodies are read by AuditEvents
    // (SeedEnvelope unwraps the first form, SignalData reads signal_data by its signal type).

    /** A decision set as the wrapped event: {@code {"event_type": "DECISION_SET_CREATED", "level", "payload"}}. */
    public record DecisionSetEvent(@Schema(enumeration = "DECISION_SET_CREATED") String eventType,
            @Schema(enumeration = {"info", "warn", "error"}) String level, @NotNull DecisionSet payload) {
    }

    /** A behaviour signal as the wrapped event: {@code {"event_type": "USER_BEHAVIOR_SIGNAL", "level", "payload"}}. */
    public record BehaviorSignalEvent(@Schema(enumeration = "USER_BEHAVIOR_SIGNAL") String eventType,
            @Schema(enumeration = {"info", "warn", "error"}) String level, @NotNull BehaviorSignal payload) {
    }

    /**
     * The documented fields of {@code signal_data}, by signal type (design.md § Behaviour signals): each is
     * type-checked when present; {@code rating} (up or down) is required for explicit_feedback; any other field is
     * kept as sent.
     */
    @Schema(additionalProperties = Schema.True.class)
    public record SignalDataFields(Double interactionDurationSeconds, Integer followupQuestions,
            String userSatisfaction, String userAction, Double delaySeconds, String overrideReason,
            String requestedAction, String previousMessageId, Double timeGapSeconds, Boolean questionHashMatch,
            String violationType, String currentPhase, String requiredPhase, Boolean errorShown,
            Double elapsedSeconds, String reason, @Schema(enumeration = {"up", "down"}) String rating,
            String comment) {
    }

    /** The seven signal types of design.md § Behaviour signals, and nothing else. */
    public enum SignalTypeName {
        @JsonProperty("smooth_completion") SMOOTH_COMPLETION,
        @JsonProperty("user_followup_override") USER_FOLLOWUP_OVERRIDE,
        @JsonProperty("delayed_comm_request") DELAYED_COMM_REQUEST,
        @JsonProperty("reask_same_question") REASK_SAME_QUESTION,
        @JsonProperty("phase_violation") PHASE_VIOLATION,
        @JsonProperty("abandoned_response") ABANDONED_RESPONSE,
        @JsonProperty("explicit_feedback") EXPLICIT_FEEDBACK;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
