package dev.hindsight.ingest.request;

import dev.hindsight.platform.problem.FieldPaths;
import dev.hindsight.platform.problem.Problem.FieldError;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.lang.annotation.Annotation;
import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;

/**
 * Bean Validation of a request record, compiled once from the record's own constraint annotations into plain checks:
 * the same constraints, field paths and messages as Hibernate Validator, at a fraction of its cost per object, which
 * matters because every item of every batch is validated (docs/benchmarks.md). The annotations stay the single source
 * of truth; {@code CompiledValidatorTest} checks that both validators report the same errors for thousands of
 * generated requests. Only the constraints ingest's request records use are compiled ({@code @NotNull},
 * {@code @NotEmpty}, {@code @NotBlank}, {@code @Size}, {@code @PositiveOrZero}, {@code @Pattern}, {@code @Valid} on
 * records and on list elements); a type using anything else is not compiled ({@link #of} is empty) and is validated by
 * Hibernate Validator.
 */
public final class CompiledValidator<T> {

    private static final Map<Class<?>, Optional<CompiledValidator<?>>> COMPILED = new ConcurrentHashMap<>();
    private static final Set<Class<? extends Annotation>> SUPPORTED = Set.of(NotNull.class, NotEmpty.class,
            NotBlank.class, Size.class, PositiveOrZero.class, Pattern.class, Valid.class);

    /** One check of one value; adds its errors under {@code path}. */
    private interface Check {
        void apply(Object value, Path path, List<FieldError> errors);
    }

    /**
     * Where a value sits ({@code messages[3].role}), spelled out only when an error names it: building every path as a
     * string, error or not, would be paid for every value checked, while only errors need one.
     */
    private record Path(Path parent, String name, int index) {

        static final Path ROOT = new Path(null, null, -1);

        Path field(String field) {
            return new Path(this, field, -1);
        }

        Path element(int at) {
            return new Path(this, null, at);
        }

        @Override
        public String toString() {
            StringBuilder out = new StringBuilder();
            append(out);
            return out.toString();
        }

        private void append(StringBuilder out) {
            if (parent == null) {
                return;
            }
            parent.append(out);
            if (name == null) {
                out.append('[').append(index).append(']');
            } else {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(name);
            }
        }
    }

    /** A record component: its snake_case name, its accessor (a generated class, not reflection) and its checks. */
    private record Property(String name, Function<Object, Object> accessor, List<Check> checks) {
    }

    private final List<Property> properties;

    private CompiledValidator(List<Property> properties) {
        this.properties = properties;
    }

    /** The compiled validator of {@code type}, or empty when it uses a constraint that is not compiled. */
    @SuppressWarnings("unchecked")
    public static <T> Optional<CompiledValidator<T>> of(Class<T> type) {
        Optional<CompiledValidator<?>> known = COMPILED.get(type);
        if (known == null) {
            // Not computeIfAbsent: compiling a record compiles the records it cascades to, in this same map.
            known = Optional.ofNullable(compile(type));
            Optional<CompiledValidator<?>> raced = COMPILED.putIfAbsent(type, known);
            known = raced != null ? raced : known;
        }
        return (Optional<CompiledValidator<T>>) (Optional<?>) known;
    }

    /**
     * Forgets every compiled validator, for tests that must compile afresh: mutation testing changes the compiling
     * code between tests, and a validator compiled before would hide the change.
     */
    static void forgetCompiled() {
        COMPILED.clear();
    }

    /** Every constraint violation of {@code value}, with snake_case paths as the producer wrote them. */
    public List<FieldError> validate(T value) {
        List<FieldError> errors = new ArrayList<>();
        validate(value, Path.ROOT, errors);
        return errors;
    }

    private void validate(Object value, Path path, List<FieldError> errors) {
        for (Property property : properties) {
            Object field = property.accessor().apply(value);
            Path fieldPath = path.field(property.name());
            for (Check check : property.checks()) {
                check.apply(field, fieldPath, errors);
            }
        }
    }

    private static CompiledValidator<?> compile(Class<?> type) {
        if (!type.isRecord()) {
            return null;
        }
        List<Property> properties = new ArrayList<>();
        for (RecordComponent component : type.getRecordComponents()) {
            Field field;
            try {
                field = type.getDeclaredField(component.getName());
            } catch (NoSuchFieldException e) {
                return null;
            }
            List<Check> checks = new ArrayList<>();
            if (!checks(field.getAnnotations(), field.getAnnotatedType(), checks)) {
                return null;
            }
            properties.add(new Property(FieldPaths.snakeCase(component.getName()), accessor(type, component),
                    List.copyOf(checks)));
        }
        return new CompiledValidator<>(List.copyOf(properties));
    }

    /**
     * The component's accessor as a function, spun by {@link LambdaMetafactory} as a method reference would be: a plain
     * call that the JIT inlines, where {@code Method.invoke} cost as much as the checks themselves.
     */
    @SuppressWarnings("unchecked")
    private static Function<Object, Object> accessor(Class<?> type, RecordComponent component) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
            MethodHandle getter = lookup.unreflect(component.getAccessor());
            CallSite site = LambdaMetafactory.metafactory(lookup, "apply", MethodType.methodType(Function.class),
                    MethodType.methodType(Object.class, Object.class), getter,
                    MethodType.methodType(getter.type().wrap().returnType(), type));
            return (Function<Object, Object>) site.getTarget().invokeExact();
        } catch (Throwable e) {
            throw new IllegalStateException("cannot read " + type.getName() + "." + component.getName(), e);
        }
    }

    /**
     * Adds the checks of a value with these declaration annotations and this annotated type (whose type-use
     * annotations on type arguments constrain a list's elements); false when something cannot be compiled.
     */
    private static boolean checks(Annotation[] annotations, AnnotatedType type, List<Check> checks) {
        for (Annotation annotation : annotations) {
            if (isConstraintOrValid(annotation) && !SUPPORTED.contains(annotation.annotationType())) {
                return false;
            }
        }
        for (Annotation annotation : annotations) {
            Check check = check(annotation, type.getType());
            if (check == null && annotation instanceof Valid) {
                Class<?> raw = raw(type.getType());
                if (raw.isRecord()) {
                    CompiledValidator<?> nested = of(raw).orElse(null);
                    if (nested == null) {
                        return false;
                    }
                    checks.add((value, path, errors) -> {
                        if (value != null) {
                            nested.validate(value, path, errors);
                        }
                    });
                } else if (!Collection.class.isAssignableFrom(raw)) {
                    return false; // @Valid on something else: maps and the like are Hibernate Validator's job
                }
            } else if (check != null) {
                checks.add(check);
            }
        }
        if (type instanceof AnnotatedParameterizedType parameterized) {
            AnnotatedType[] arguments = parameterized.getAnnotatedActualTypeArguments();
            boolean constrained = false;
            for (AnnotatedType argument : arguments) {
                constrained |= argument.getAnnotations().length > 0;
            }
            if (!constrained) {
                return true;
            }
            if (!List.class.isAssignableFrom(raw(type.getType())) || arguments.length != 1) {
                return false;
            }
            List<Check> elementChecks = new ArrayList<>();
            if (!checks(arguments[0].getAnnotations(), arguments[0], elementChecks)) {
                return false;
            }
            checks.add((value, path, errors) -> {
                if (value instanceof List<?> list) {
                    for (int i = 0; i < list.size(); i++) {
                        Path element = path.element(i);
                        for (Check check : elementChecks) {
                            check.apply(list.get(i), element, errors);
                        }
                    }
                }
            });
        }
        return true;
    }

    private static boolean isConstraintOrValid(Annotation annotation) {
        return annotation instanceof Valid
                || annotation.annotationType().isAnnotationPresent(jakarta.validation.Constraint.class);
    }

    /** The check of one constraint annotation, or null for {@code @Valid} (handled by the caller). */
    private static Check check(Annotation annotation, java.lang.reflect.Type valueType) {
        if (annotation instanceof NotNull notNull) {
            String message = message(notNull.message(), "must not be null", Map.of());
            return (value, path, errors) -> {
                if (value == null) {
                    errors.add(new FieldError(path.toString(), message));
                }
            };
        }
        if (annotation instanceof NotEmpty notEmpty) {
            String message = message(notEmpty.message(), "must not be empty", Map.of());
            return (value, path, errors) -> {
                if (value == null || size(value) == 0) {
                    errors.add(new FieldError(path.toString(), message));
                }
            };
        }
        if (annotation instanceof NotBlank notBlank) {
            String message = message(notBlank.message(), "must not be blank", Map.of());
            return (value, path, errors) -> {
                if (value == null || value.toString().isBlank()) {
                    errors.add(new FieldError(path.toString(), message));
                }
            };
        }
        if (annotation instanceof Size size) {
            int min = size.min();
            int max = size.max();
            String message = message(size.message(), "size must be between " + min + " and " + max,
                    Map.of("min", String.valueOf(min), "max", String.valueOf(max)));
            return (value, path, errors) -> {
                if (value != null) {
                    int length = size(value);
                    if (length < min || length > max) {
                        errors.add(new FieldError(path.toString(), message));
                    }
                }
            };
        }
        if (annotation instanceof PositiveOrZero positive) {
            String message = message(positive.message(), "must be greater than or equal to 0", Map.of());
            return (value, path, errors) -> {
                if (value instanceof Number number && number.doubleValue() < 0) {
                    errors.add(new FieldError(path.toString(), message));
                }
            };
        }
        if (annotation instanceof Pattern pattern) {
            java.util.regex.Pattern compiled = java.util.regex.Pattern.compile(pattern.regexp());
            String message = message(pattern.message(), "must match \"" + pattern.regexp() + "\"",
                    Map.of("regexp", pattern.regexp()));
            return (value, path, errors) -> {
                if (value != null && !compiled.matcher(value.toString()).matches()) {
                    errors.add(new FieldError(path.toString(), message));
                }
            };
        }
        return null;
    }

    /** The default English message for a built-in template, else the annotation's own text with its attributes. */
    private static String message(String template, String builtIn, Map<String, String> attributes) {
        if (template.startsWith("{jakarta.validation.constraints.")) {
            return builtIn;
        }
        String message = template;
        for (Map.Entry<String, String> attribute : attributes.entrySet()) {
            message = message.replace("{" + attribute.getKey() + "}", Matcher.quoteReplacement(attribute.getValue()));
        }
        return message;
    }

    private static int size(Object value) {
        if (value instanceof CharSequence text) {
            return text.length();
        }
        if (value instanceof Collection<?> collection) {
            return collection.size();
        }
        if (value instanceof Map<?, ?> map) {
            return map.size();
        }
        throw new IllegalArgumentException("no size for " + value.getClass());
    }

    private static Class<?> raw(java.lang.reflect.Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        return Object.class;
    }
}
