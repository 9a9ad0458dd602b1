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
import dev.hindsight.platform.problem.Problem.FieldError;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a signal's {@code signal_data} into the typed record of its signal type. Documented fields are type-checked
 * (a wrong type is a 400 naming the field); fields beyond them are kept as {@code extra_data} so nothing a producer
 * sent is lost.
 */
final class SignalData {

    /** A signal's typed data and the undocumented rest, as JSON text (or null). */
    record Read(Object data, String extra) {
    }

    private SignalData() {
    }

    static Read read(SignalTypeName type, JsonNode node, String path, List<FieldError> errors) {
        if (node != null && !node.isNull() && !node.isObject()) {
            errors.add(new FieldError(path, "must be an object"));
            return null;
        }
        Fields f = new Fields(node == null || node.isNull() ? null : (ObjectNode) node, path, errors);
        Object data = switch (type) {
            case SMOOTH_COMPLETION -> SmoothCompletion.newBuilder()
                    .setInteractionDurationSeconds(f.number("interaction_duration_seconds"))
                    .setFollowupQuestions(f.integer("followup_questions"))
                    .setUserSatisfaction(f.text("user_satisfaction")).build();
            case USER_FOLLOWUP_OVERRIDE -> UserFollowupOverride.newBuilder()
                    .setUserAction(f.text("user_action"))
                    .setDelaySeconds(f.number("delay_seconds"))
                    .setOverrideReason(f.text("override_reason"))
                    .setRequestedAction(f.text("requested_action")).build();
            case DELAYED_COMM_REQUEST -> DelayedCommRequest.newBuilder()
                    .setUserAction(f.text("user_action"))
                    .setDelaySeconds(f.number("delay_seconds")).build();
            case REASK_SAME_QUESTION -> ReaskSameQuestion.newBuilder()
                    .setPreviousMessageId(f.text("previous_message_id"))
                    .setTimeGapSeconds(f.number("time_gap_seconds"))
                    .setQuestionHashMatch(f.bool("question_hash_match")).build();
            case PHASE_VIOLATION -> PhaseViolation.newBuilder()
                    .setViolationType(f.text("violation_type"))
                    .setCurrentPhase(f.text("current_phase"))
                    .setRequiredPhase(f.text("required_phase"))
                    .setErrorShown(f.bool("error_shown")).build();
            case ABANDONED_RESPONSE -> AbandonedResponse.newBuilder()
                    .setElapsedSeconds(f.number("elapsed_seconds"))
                    .setReason(f.text("reason")).build();
            case EXPLICIT_FEEDBACK -> ExplicitFeedback.newBuilder()
                    .setRating(f.rating())
                    .setComment(f.text("comment")).build();
        };
        return f.failed ? null : new Read(data, f.extra());
    }

    /** Reads documented fields and remembers them, so the rest can be kept as extra data. */
    private static final class Fields {
        private final ObjectNode node;
        private final String path;
        private final List<FieldError> errors;
        private final Set<String> read = new java.util.HashSet<>();
        private boolean failed;

        Fields(ObjectNode node, String path, List<FieldError> errors) {
            this.node = node;
            this.path = path;
            this.errors = errors;
        }

        private JsonNode get(String field) {
            read.add(field);
            JsonNode value = node == null ? null : node.get(field);
            return value == null || value.isNull() ? null : value;
        }

        String text(String field) {
            JsonNode value = get(field);
            if (value == null) {
                return null;
            }
            if (!value.isTextual()) {
                fail(field, "must be a string");
                return null;
            }
            if (value.textValue().length() > 65_536) {
                fail(field, "must be at most 65536 characters");
            }
            return value.textValue();
        }

        Double number(String field) {
            JsonNode value = get(field);
            if (value == null) {
                return null;
            }
            if (!value.isNumber()) {
                fail(field, "must be a number");
                return null;
            }
            return value.doubleValue();
        }

        Integer integer(String field) {
            JsonNode value = get(field);
            if (value == null) {
                return null;
            }
            if (!value.isIntegralNumber() || !value.canConvertToInt()) {
                fail(field, "must be an integer");
                return null;
            }
            return value.intValue();
        }

        Boolean bool(String field) {
            JsonNode value = get(field);
            if (value == null) {
                return null;
            }
            if (!value.isBoolean()) {
                fail(field, "must be true or false");
                return null;
            }
            return value.booleanValue();
        }

        FeedbackRating rating() {
            String rating = text("rating");
            if (rating == null) {
                fail("rating", "required for explicit_feedback: up or down");
                return FeedbackRating.UP;
            }
            return switch (rating.toLowerCase(Locale.ROOT)) {
                case "up" -> FeedbackRating.UP;
                case "down" -> FeedbackRating.DOWN;
                default -> {
                    fail("rating", "must be up or down");
                    yield FeedbackRating.UP;
                }
            };
        }

        String extra() {
            if (node == null) {
                return null;
            }
            ObjectNode rest = node.deepCopy();
            rest.remove(read);
            return rest.isEmpty() ? null : rest.toString();
        }

        private void fail(String field, String message) {
            failed = true;
            errors.add(new FieldError(path + "." + field, message));
        }
    }
}
