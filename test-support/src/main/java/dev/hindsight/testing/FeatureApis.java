package dev.hindsight.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A service's feature packages keep to themselves what they do not offer: a class of one package (directly under the
 * service's root) uses of another only the types its {@code @FeatureApi} names, and the types nested in them.
 */
final class FeatureApis {

    private static final String FEATURE_API = "dev.hindsight.platform.FeatureApi";

    private FeatureApis() {
    }

    static ArchRule rule(String rootPackage) {
        return classes().that().resideInAPackage(rootPackage + "..")
                .should(new ArchCondition<>("use of another feature package only the types its @FeatureApi offers") {
                    @Override
                    public void check(JavaClass origin, ConditionEvents events) {
                        String from = feature(rootPackage, origin.getPackageName());
                        for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                            JavaClass target = dependency.getTargetClass().getBaseComponentType();
                            String to = feature(rootPackage, target.getPackageName());
                            if (to != null && !to.equals(from) && !offered(target)) {
                                events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()
                                        + ": " + topLevel(target).getSimpleName() + " is not in the @FeatureApi of "
                                        + target.getPackageName()));
                            }
                        }
                    }
                })
                .as("a feature package of " + rootPackage + " is used by the others only through its @FeatureApi");
    }

    /** The feature (first package below the root) a package belongs to; null outside the root or in the root. */
    private static String feature(String rootPackage, String packageName) {
        if (!packageName.startsWith(rootPackage + ".")) {
            return null;
        }
        String rest = packageName.substring(rootPackage.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static boolean offered(JavaClass target) {
        JavaClass top = topLevel(target);
        return offeredBy(top.getPackage()).contains(top.getName());
    }

    private static JavaClass topLevel(JavaClass type) {
        JavaClass top = type;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        return top;
    }

    /** The names of the types a package's {@code @FeatureApi} offers (none without one). */
    static Set<String> offeredBy(JavaPackage pkg) {
        Optional<Object> value = pkg.tryGetAnnotationOfType(FEATURE_API).flatMap(api -> api.get("value"));
        return value.map(types -> Arrays.stream((Object[]) types).map(type -> ((JavaClass) type).getName())
                .collect(Collectors.toSet())).orElse(Set.of());
    }
}
