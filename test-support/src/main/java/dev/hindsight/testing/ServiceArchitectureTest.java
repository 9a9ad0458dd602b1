package dev.hindsight.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * A service's architecture test: each module has a subclass naming the service and its root package, and every rule
 * of {@link Architecture#serviceRules} is one test of it, named after the rule; so are the tenant rules
 * ({@link TenantRules}), the share of lines any one package may hold, and, where the module's README says who owns
 * which table, that only the owner writes it ({@link TableOwners}).
 */
public abstract class ServiceArchitectureTest {

    /** No package of a service holds more than this share of its lines: a larger one is several features. */
    public static final double MAX_PACKAGE_SHARE = 0.25;

    private final String service;
    private final String rootPackage;

    protected ServiceArchitectureTest(String service, String rootPackage) {
        this.service = service;
        this.rootPackage = rootPackage;
    }

    @TestFactory
    public Stream<DynamicTest> theCodeKeepsTheArchitecture() {
        JavaClasses classes = Architecture.classes(rootPackage);
        return Stream.concat(Architecture.serviceRules(service, rootPackage).stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(classes))), Stream.of(
                DynamicTest.dynamicTest("no method of " + service + " takes a tenant as a bare String",
                        () -> assertThat(TenantRules.bareStringTenants(classes)).isEmpty()),
                DynamicTest.dynamicTest("every statement of " + service + " on a tenant's table names tenant_id",
                        () -> {
                            List<String> violations = TenantRules.statementsWithoutTenant(classes,
                                    TenantRules.tenantScopedTables(Path.of("src/main/resources/db")));
                            assertThat(violations).isEmpty();
                        }),
                DynamicTest.dynamicTest("no package of " + service + " holds more than a quarter of its lines",
                        () -> assertThat(SourceRules.oversizedPackages(Path.of("src/main/java"), MAX_PACKAGE_SHARE))
                                .isEmpty()),
                DynamicTest.dynamicTest("only its owner writes a table of " + service, () -> {
                    Path readme = Path.of("README.md");
                    if (Files.readString(readme).toLowerCase(Locale.ROOT).contains("who owns which table")) {
                        assertThat(TableOwners.writesOutsideOwner(classes, rootPackage,
                                TableOwners.fromReadme(readme))).isEmpty();
                    }
                })));
    }
}
