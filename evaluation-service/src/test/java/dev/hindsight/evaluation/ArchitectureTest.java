package dev.hindsight.evaluation;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.hindsight.testing.Architecture;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The rules of {@link Architecture}, held by evaluation-service's compiled code. */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> theCodeKeepsTheArchitecture() {
        JavaClasses classes = Architecture.classes("dev.hindsight.evaluation");
        return Architecture.serviceRules("evaluation-service", "dev.hindsight.evaluation").stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(classes)));
    }
}
