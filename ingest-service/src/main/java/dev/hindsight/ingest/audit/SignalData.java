package dev.hindsight.ingest.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.events.signals.AbandonedResponse;
import dev.hindsight.events.signals.DelayedCommRequest;
import dev.hindsight.events.signals.ExplicitFeedback;
import dev.hindsight.events.signals.FeedbackRating;
import dev.hindsight.events.signals.PhaseViolation;
import dev.hindsight.events.signals.ReaskSameQuestion;
import dev.hindsight.events.signals.SmoothCompletion;
import dev.hindsight.events.signals.UserFollowupOverride;
import dev.hindsight.ingest.audit.AuditRequests.SignalTypeName;
import dev.hindsight.ingest.request.RequestReader;
import dev.hindsight.platform.problem.Problem.FieldError;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * A signal's {@code signal_data}, read into the typed record of its signal type (design.md § Behaviour signals).
 * {@code signal_data} is an open object: the documented fields are typed and checked (a wrong type is a 400 naming the
 * field, every such field at once, {@link RequestReader#readFields}); fields beyond them are kept as
 * {@code extra_data} so nothing a producer sent is lost.
 */
final class SignalData {

    /** A signal's typed data (its Avro record) and the undocumented rest, as JSON text (or null). */
    record Read(Object data, String extra) {
    }

    private static final int TEXT = 65_536;

    /** The documented fields of one signal type, as the Avro record of that type. */
    interface Data {
        Object avro();
    }

    record SmoothCompletionData(Double interactionDurationSeconds, Integer followupQuestions,
            @Size(max = TEXT) String userSatisfaction) implements Data {
        public Object avro() {
            return SmoothCompletion.newBuilder().setInteractionDurationSeconds(interactionDurationSeconds)
                    .setFollowupQuestions(followupQuestions).setUserSatisfaction(userSatisfaction).build();
        }
    }

    record UserFollowupOverrideData(@Size(max = TEXT) String userAction, Double delaySeconds,
            @Size(max = TEXT) String overrideReason, @Size(max = TEXT) String requestedAction) implements Data {
        public Object avro() {
            return UserFollowupOverride.newBuilder().setUserAction(userAction).setDelaySeconds(delaySeconds)
                    .setOverrideReason(overrideReason).setRequestedAction(requestedAction).build();
        }
    }

    record DelayedCommRequestData(@Size(max = TEXT) String userAction, Double delaySeconds) implements Data {
        public Object avro() {
            return DelayedCommRequest.newBuilder().setUserAction(userAction).setDelaySeconds(delaySeconds).build();
        }
    }

    record ReaskSameQuestionData(@Size(max = TEXT) String previousMessageId, Double timeGapSeconds,
            Boolean questionHashMatch) implements Data {
        public Object avro() {
            return ReaskSameQuestion.newBuilder().setPreviousMessageId(previousMessageId)
                    .setTimeGapSeconds(timeGapSeconds).setQuestionHashMatch(questionHashMatch).build();
        }
    }

    record PhaseViolationData(@Size(max = TEXT) String violationType, @Size(max = TEXT) String currentPhase,
            @Size(max = TEXT) String requiredPhase, Boolean errorShown) implements Data {
        public Object avro() {
            return PhaseViolation.newBuilder().setViolationType(violationType).setCurrentPhase(currentPhase)
                    .setRequiredPhase(requiredPhase).setErrorShown(errorShown).build();
        }
    }

    record AbandonedResponseData(Double elapsedSeconds, @Size(max = TEXT) String reason) implements Data {
        public Object avro() {
            return AbandonedResponse.newBuilder().setElapsedSeconds(elapsedSeconds).setReason(reason).build();
        }
    }

    /** {@code rating} is required here, up or down in any case. */
    record ExplicitFeedbackData(
            @NotNull(message = "required for explicit_feedback: up or down")
            @Pattern(regexp = "(?i)^(up|down)$", message = "must be up or down") String rating,
            @Size(max = TEXT) String comment) implements Data {
        public Object avro() {
            return ExplicitFeedback.newBuilder()
                    .setRating(rating.equalsIgnoreCase("up") ? FeedbackRating.UP : FeedbackRating.DOWN)
                    .setComment(comment).build();
        }
    }

    private SignalData() {
    }

    /** The data of a signal of type {@code type}, or null when {@code errors} received the reasons. */
    static Read read(RequestReader reader, SignalTypeName type, JsonNode node, String path,
            List<FieldError> errors) {
        Class<? extends Record> shape = shape(type);
        Record fields = reader.readFields(node, shape, path, errors);
        return fields == null ? null : new Read(((Data) fields).avro(), extra(node, shape));
    }

    private static Class<? extends Record> shape(SignalTypeName type) {
        return switch (type) {
            case SMOOTH_COMPLETION -> SmoothCompletionData.class;
            case USER_FOLLOWUP_OVERRIDE -> UserFollowupOverrideData.class;
            case DELAYED_COMM_REQUEST -> DelayedCommRequestData.class;
            case REASK_SAME_QUESTION -> ReaskSameQuestionData.class;
            case PHASE_VIOLATION -> PhaseViolationData.class;
            case ABANDONED_RESPONSE -> AbandonedResponseData.class;
            case EXPLICIT_FEEDBACK -> ExplicitFeedbackData.class;
        };
    }

    /** The fields of {@code node} that {@code shape} does not document, as JSON text; null when there are none. */
    private static String extra(JsonNode node, Class<? extends Record> shape) {
        if (node == null || !node.isObject()) {
            return null;
        }
        ObjectNode rest = ((ObjectNode) node).deepCopy();
        rest.remove(RequestReader.fieldNames(shape));
        return rest.isEmpty() ? null : rest.toString();
    }
}
