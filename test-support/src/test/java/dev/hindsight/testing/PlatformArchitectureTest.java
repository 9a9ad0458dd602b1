package dev.hindsight.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * platform, which every service builds on, keeps the architecture's rules ({@link Architecture#platformRules}) and the
 * tenant rules ({@link TenantRules}) for its own code and tables.
 */
class PlatformArchitectureTest {

    @TestFactory
    Stream<DynamicTest> platformKeepsTheArchitecture() {
        JavaClasses classes = Architecture.classes("dev.hindsight.platform");
        return Stream.concat(Architecture.platformRules().stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(classes))), Stream.of(
                DynamicTest.dynamicTest("no method of platform takes a tenant as a bare String",
                        () -> assertThat(TenantRules.bareStringTenants(classes)).isEmpty()),
                DynamicTest.dynamicTest("every statement of platform on a tenant's table names tenant_id",
                        () -> assertThat(TenantRules.statementsWithoutTenant(classes, TenantRules.tenantScopedTables(
                                Path.of("../platform/src/main/resources/db")))).isEmpty())));
    }
}
