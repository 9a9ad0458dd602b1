package dev.hindsight.ingest.request;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hindsight.ingest.session.AppendMessagesRequest;
import dev.hindsight.ingest.session.SessionDetailsRequests;
import dev.hindsight.ingest.session.StartSessionRequest;
import dev.hindsight.platform.problem.FieldPaths;
import dev.hindsight.platform.problem.Problem.FieldError;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;

/**
 * The compiled validator reports exactly what Hibernate Validator reports (field paths and messages) for the request
 * records it compiles: thousands of generated requests per type, valid and invalid in every way the annotations
 * allow, each checked by both.
 */
class CompiledValidatorTest {

    private static final Validator HIBERNATE = Validation.byProvider(HibernateValidator.class).configure()
            .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory().getValidator();
    private static final Comparator<FieldError> ORDER = Comparator.comparing(FieldError::field)
            .thenComparing(FieldError::message);

    @org.junit.jupiter.api.BeforeEach
    void compileAfresh() {
        CompiledValidator.forgetCompiled();
    }

    @Test
    void messagesAreReportedAsHibernateValidatorReportsThem() {
        agreesOn(AppendMessagesRequest.class, 2000);
    }

    @Test
    void positionsActivitiesAndCompletionsToo() {
        agreesOn(SessionDetailsRequests.RecordPositions.class, 1000);
        agreesOn(SessionDetailsRequests.RecordActivities.class, 1000);
        agreesOn(SessionDetailsRequests.CompleteSession.class, 1000);
    }

    @Test
    void listLimitsCountElements() {
        AppendMessagesRequest.Message message = new AppendMessagesRequest.Message(null, 0,
                AppendMessagesRequest.Role.USER, "hi", null, null, null, null, null, null);
        SessionDetailsRequests.Activity activity = new SessionDetailsRequests.Activity("e-1", null, null,
                "thought_log", JsonNodeFactory.instance.objectNode(), 0);
        for (int size : new int[] {1000, 1001}) {
            sameErrors(new AppendMessagesRequest(java.util.Collections.nCopies(size, message)), size == 1000 ? 0 : 1);
        }
        for (int size : new int[] {5000, 5001}) {
            sameErrors(new SessionDetailsRequests.RecordActivities(java.util.Collections.nCopies(size, activity)),
                    size == 5000 ? 0 : 1);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> void sameErrors(T request, int count) {
        CompiledValidator<T> validator = CompiledValidator.of((Class<T>) request.getClass()).orElseThrow();
        List<FieldError> expected = new ArrayList<>();
        HIBERNATE.validate(request).forEach(v -> expected.add(new FieldError(FieldPaths.of(v), v.getMessage())));
        assertThat(validator.validate(request)).isEqualTo(expected).hasSize(count);
    }

    @Test
    void aTypeWithConstraintsItCannotCompileIsLeftToHibernateValidator() {
        // Constrained map keys and values (labels) are not compiled.
        assertThat(CompiledValidator.of(StartSessionRequest.class)).isEmpty();
        assertThat(CompiledValidator.of(AppendMessagesRequest.class)).isPresent();
        assertThat(CompiledValidator.of(String.class)).isEmpty();
    }

    @Test
    void aValidRequestHasNoErrorsAndAnInvalidOneNamesEveryField() {
        CompiledValidator<AppendMessagesRequest> validator = CompiledValidator.of(AppendMessagesRequest.class)
                .orElseThrow();
        AppendMessagesRequest valid = new AppendMessagesRequest(List.of(new AppendMessagesRequest.Message(null, 0,
                AppendMessagesRequest.Role.USER, "hi", null, null, null, null, null, null)));
        assertThat(validator.validate(valid)).isEmpty();

        AppendMessagesRequest invalid = new AppendMessagesRequest(List.of(new AppendMessagesRequest.Message(null, -1,
                null, null, "x".repeat(257), null, null, List.of(new AppendMessagesRequest.ThinkingStep(null,
                        AppendMessagesRequest.StepType.TOOL, null, null, null, null, null)), null, null)));
        assertThat(validator.validate(invalid)).extracting(FieldError::field).containsExactlyInAnyOrder(
                "messages[0].message_index", "messages[0].role", "messages[0].content", "messages[0].tool_name",
                "messages[0].thinking_steps[0].step_order");
    }

    private static <T> void agreesOn(Class<T> type, int requests) {
        CompiledValidator<T> compiled = CompiledValidator.of(type).orElseThrow();
        Random random = new Random(type.getName().hashCode());
        int invalid = 0;
        for (int i = 0; i < requests; i++) {
            T request = type.cast(generate(type, random, 0));
            List<FieldError> expected = new ArrayList<>();
            for (ConstraintViolation<T> violation : HIBERNATE.validate(request)) {
                expected.add(new FieldError(FieldPaths.of(violation), violation.getMessage()));
            }
            List<FieldError> actual = new ArrayList<>(compiled.validate(request));
            expected.sort(ORDER);
            actual.sort(ORDER);
            assertThat(actual).as("%s #%d: %s", type.getSimpleName(), i, request).isEqualTo(expected);
            invalid += expected.isEmpty() ? 0 : 1;
        }
        // Both kinds must have been generated for the comparison to mean anything.
        assertThat(invalid).isBetween(20, requests - 20);
    }

    private static Object generate(Type type, Random random, int depth) {
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
        if (raw.isRecord()) {
            if (depth > 0 && random.nextInt(8) == 0) {
                return null;
            }
            RecordComponent[] components = raw.getRecordComponents();
            Object[] values = new Object[components.length];
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                values[i] = generate(components[i].getGenericType(), random, depth + 1);
            }
            try {
                Constructor<?> constructor = raw.getDeclaredConstructor(types);
                constructor.setAccessible(true);
                return constructor.newInstance(values);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        if (random.nextInt(14) == 0) {
            return null;
        }
        if (raw == String.class) {
            return switch (random.nextInt(20)) {
                case 0 -> "";
                case 1 -> "   ";
                case 2 -> "-starts-badly";
                case 3 -> "has space";
                case 4 -> "x".repeat(new int[] {32, 33, 64, 65, 128, 129, 256, 257, 512, 513}[random.nextInt(10)]);
                case 5 -> "x".repeat(new int[] {2048, 2049, 5000, 65_536, 65_537}[random.nextInt(5)]);
                case 6 -> "x".repeat(random.nextBoolean() ? 1_048_576 : 1_048_577);
                default -> "ok-" + random.nextInt(1000);
            };
        }
        if (raw == Integer.class) {
            return new int[] {-5, -1, 0, 1, 42, 7, 3}[random.nextInt(7)];
        }
        if (raw == Boolean.class) {
            return random.nextBoolean();
        }
        if (raw == Double.class) {
            return random.nextBoolean() ? -1.5 : 2.25;
        }
        if (raw.isEnum()) {
            Object[] constants = raw.getEnumConstants();
            return constants[random.nextInt(constants.length)];
        }
        if (raw == UUID.class) {
            return UUID.randomUUID();
        }
        if (raw == OffsetDateTime.class) {
            return OffsetDateTime.parse("2025-10-02T10:00:00Z");
        }
        if (raw == LocalDate.class) {
            return LocalDate.of(2025, 10, 2);
        }
        if (raw == com.fasterxml.jackson.databind.JsonNode.class) {
            return random.nextBoolean() ? JsonNodeFactory.instance.textNode("x")
                    : JsonNodeFactory.instance.objectNode().put("k", 1);
        }
        if (raw == List.class) {
            Type element = ((ParameterizedType) type).getActualTypeArguments()[0];
            // List limits are checked on their own below: Hibernate Validator slows down quadratically with
            // thousands of violations in one request, so random lists stay short.
            int size = random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(3);
            List<Object> list = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                list.add(generate(element, random, depth + 1));
            }
            return list;
        }
        throw new IllegalArgumentException("no generator for " + type);
    }
}
