package dev.hindsight.ingest;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.hindsight.testing.Architecture;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The rules of {@link Architecture}, held by ingest-service's compiled code. */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> theCodeKeepsTheArchitecture() {
        JavaClasses classes = Architecture.classes("dev.hindsight.ingest");
        return Architecture.serviceRules("ingest-service", "dev.hindsight.ingest").stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(classes)));
    }
}
