package dev.hindsight.query;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.hindsight.testing.Architecture;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The rules of {@link Architecture}, held by query-service's compiled code. */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> theCodeKeepsTheArchitecture() {
        JavaClasses classes = Architecture.classes("dev.hindsight.query");
        return Architecture.serviceRules("query-service", "dev.hindsight.query").stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(classes)));
    }
}
