package dev.hindsight.testing;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * A service's architecture test: each module has a subclass naming the service and its root package, and every rule
 * of {@link Architecture#serviceRules} is one test of it, named after the rule.
 */
public abstract class ServiceArchitectureTest {

    private final String service;
    private final String rootPackage;

    protected ServiceArchitectureTest(String service, String rootPackage) {
        this.service = service;
        this.rootPackage = rootPackage;
    }

    @TestFactory
    public Stream<DynamicTest> theCodeKeepsTheArchitecture() {
        JavaClasses classes = Architecture.classes(rootPackage);
        return Architecture.serviceRules(service, rootPackage).stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(classes)));
    }
}
