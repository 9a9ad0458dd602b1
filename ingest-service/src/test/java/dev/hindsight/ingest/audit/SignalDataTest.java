package dev.hindsight.ingest.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hindsight.events.signals.ExplicitFeedback;
import dev.hindsight.events.signals.FeedbackRating;
import dev.hindsight.events.signals.ReaskSameQuestion;
import dev.hindsight.events.signals.SmoothCompletion;
import dev.hindsight.ingest.audit.AuditRequests.SignalTypeName;
import dev.hindsight.ingest.request.RequestReader;
import dev.hindsight.platform.json.StorableJsonCustomizer;
import dev.hindsight.platform.problem.Problem.FieldError;
import jakarta.validation.Validation;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;

/** signal_data as each signal type documents it: typed fields, every mistake named at once, the rest kept. */
class SignalDataTest {

    private static final ObjectMapper JSON = mapper();
    private static final RequestReader READER = new RequestReader(JSON, Validation
            .byProvider(HibernateValidator.class).configure()
            .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory().getValidator());

    private static ObjectMapper mapper() {
        ObjectMapper json = JsonMapper.builder().findAndAddModules()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
        new StorableJsonCustomizer().customize(json);
        return json;
    }

    private static List<FieldError> errors = new ArrayList<>();

    private static SignalData.Read read(SignalTypeName type, String data) throws Exception {
        errors = new ArrayList<>();
        JsonNode node = data == null ? null : JSON.readTree(data);
        return SignalData.read(READER, type, node, "signal_data", errors);
    }

    @Test
    void documentedFieldsAreTypedAndTheRestIsKeptAsSent() throws Exception {
        SignalData.Read read = read(SignalTypeName.SMOOTH_COMPLETION, """
                {"interaction_duration_seconds": 30, "followup_questions": 2, "user_satisfaction": "implied_high",
                 "tab": {"hidden": true}, "n": 1e3}""");

        assertThat(errors).isEmpty();
        SmoothCompletion data = (SmoothCompletion) read.data();
        assertThat(data.getInteractionDurationSeconds()).isEqualTo(30.0);
        assertThat(data.getFollowupQuestions()).isEqualTo(2);
        assertThat(data.getUserSatisfaction()).isEqualTo("implied_high");
        assertThat(JSON.readTree(read.extra())).isEqualTo(JSON.readTree("{\"tab\": {\"hidden\": true}, \"n\": 1e3}"));
    }

    @Test
    void noDataIsEmptyDataWithNothingExtra() throws Exception {
        SignalData.Read read = read(SignalTypeName.REASK_SAME_QUESTION, null);

        assertThat(errors).isEmpty();
        assertThat(((ReaskSameQuestion) read.data()).getTimeGapSeconds()).isNull();
        assertThat(read.extra()).isNull();
    }

    @Test
    void everyMistypedFieldIsNamedAtOnce() throws Exception {
        SignalData.Read read = read(SignalTypeName.REASK_SAME_QUESTION, """
                {"previous_message_id": 7, "time_gap_seconds": "a minute", "question_hash_match": "yes"}""");

        assertThat(read).isNull();
        assertThat(errors).extracting(FieldError::field).containsExactly("signal_data.previous_message_id",
                "signal_data.time_gap_seconds", "signal_data.question_hash_match");
        assertThat(errors).extracting(FieldError::message).doesNotContainNull().allSatisfy(m -> assertThat(m)
                .doesNotStartWith("malformed"));
    }

    @Test
    void anIntegerMustBeAnIntegerThatFits() throws Exception {
        read(SignalTypeName.SMOOTH_COMPLETION, "{\"followup_questions\": 1.5}");
        assertThat(errors).extracting(FieldError::field).containsExactly("signal_data.followup_questions");
        read(SignalTypeName.SMOOTH_COMPLETION, "{\"followup_questions\": 3000000000}");
        assertThat(errors).extracting(FieldError::field).containsExactly("signal_data.followup_questions");
        assertThat(errors.get(0).message()).isEqualTo("out of range for a 32-bit integer");
    }

    @Test
    void explicitFeedbackNeedsARatingOfUpOrDownInAnyCase() throws Exception {
        assertThat(((ExplicitFeedback) read(SignalTypeName.EXPLICIT_FEEDBACK, "{\"rating\": \"Down\"}").data())
                .getRating()).isEqualTo(FeedbackRating.DOWN);
        assertThat(((ExplicitFeedback) read(SignalTypeName.EXPLICIT_FEEDBACK, "{\"rating\": \"up\"}").data())
                .getRating()).isEqualTo(FeedbackRating.UP);

        assertThat(read(SignalTypeName.EXPLICIT_FEEDBACK, "{}")).isNull();
        assertThat(errors).containsExactly(
                new FieldError("signal_data.rating", "required for explicit_feedback: up or down"));
        assertThat(read(SignalTypeName.EXPLICIT_FEEDBACK, "{\"rating\": \"sideways\"}")).isNull();
        assertThat(errors).containsExactly(new FieldError("signal_data.rating", "must be up or down"));
    }

    @Test
    void dataThatIsNotAnObjectIsRefused() throws Exception {
        assertThat(read(SignalTypeName.ABANDONED_RESPONSE, "[1]")).isNull();
        assertThat(errors).containsExactly(new FieldError("signal_data", "must be an object"));
    }

    @Test
    void textBeyondItsLimitIsRefused() throws Exception {
        assertThat(read(SignalTypeName.ABANDONED_RESPONSE,
                "{\"reason\": \"" + "x".repeat(65_537) + "\"}")).isNull();
        assertThat(errors).extracting(FieldError::field).containsExactly("signal_data.reason");
    }
}
