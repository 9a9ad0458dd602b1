package dev.hindsight.testing;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** platform, which every service builds on, keeps the architecture's rules ({@link Architecture#platformRules}). */
class PlatformArchitectureTest {

    @TestFactory
    Stream<DynamicTest> platformKeepsTheArchitecture() {
        JavaClasses classes = Architecture.classes("dev.hindsight.platform");
        return Architecture.platformRules().stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(classes)));
    }
}
