package dev.hindsight.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository keeps its house rules, and each rule fails on a planted violation (the {@code planted} packages
 * and {@code planted-db} migration of these tests break each one once, beside uses the rules allow).
 */
class HouseRulesTest {

    private static final JavaClasses PLANTED = new ClassFileImporter()
            .importPackages("dev.hindsight.testing.planted");

    @Test
    void everyMainClassNameOfTheRepositoryIsItsOnlyOne() {
        assertThat(SourceRules.duplicateClassNames(Path.of("..").toAbsolutePath().normalize())).isEmpty();
    }

    @Test
    void aDuplicateClassNameIsFound(@TempDir Path repository) throws IOException {
        for (String module : List.of("one", "two")) {
            Path dir = Files.createDirectories(repository.resolve(module + "/src/main/java/dev/x/" + module));
            Files.writeString(dir.resolve("SessionResource.java"), "class SessionResource {}");
            Files.writeString(dir.resolve("Own" + module + ".java"), "class Own" + module + " {}");
        }
        assertThat(SourceRules.duplicateClassNames(repository)).containsOnlyKeys("SessionResource");
    }

    @Test
    void aFeaturePackageUsedBeyondItsApiFailsTheRule() {
        String report = FeatureApis.rule("dev.hindsight.testing.planted").evaluate(PLANTED).getFailureReport()
                .toString();
        assertThat(report).contains("Invoices.owed()").contains("Ledgers is not in the @FeatureApi");
        assertThat(report).doesNotContain("Orders");
    }

    @Test
    void aTenantTakenAsABareStringIsFound() {
        assertThat(TenantRules.bareStringTenants(PLANTED))
                .containsExactly("dev.hindsight.testing.planted.billing.Invoices.find(String tenant)");
    }

    @Test
    void theTenantScopedTablesAreThoseWithATenantColumn() {
        assertThat(TenantRules.tenantScopedTables(planted())).isEqualTo(Set.of("invoice", "payment"));
    }

    @Test
    void aStatementOnATenantsTableWithoutItsTenantIsFound() {
        List<String> violations = TenantRules.statementsWithoutTenant(PLANTED, TenantRules.tenantScopedTables(planted()));
        assertThat(violations).hasSize(3);
        assertThat(violations).anyMatch(v -> v.contains("SELECT * FROM invoice WHERE invoice_id = $1"))
                .anyMatch(v -> v.contains("INSERT INTO invoice (invoice_id)"))
                .anyMatch(v -> v.contains("SELECT * FROM invoice i WHERE i.invoice_id = $1 AND EXISTS"));
    }

    @Test
    void aTableWrittenOutsideItsOwnerIsFound() {
        Map<String, String> owners = TableOwners.fromReadme(Path.of("src/test/resources/planted-README.md"));
        assertThat(owners).containsExactly(Map.entry("invoice", "sales"), Map.entry("currency",
                "billing"));
        String prefix = "dev.hindsight.testing.planted.billing.Invoices writes invoice, which "
                + "dev.hindsight.testing.planted.sales owns: ";
        assertThat(TableOwners.writesOutsideOwner(PLANTED, "dev.hindsight.testing.planted", owners))
                .containsExactlyInAnyOrder(prefix + "INSERT INTO invoice (invoice_id) VALUES ($1)",
                        prefix + "DELETE FROM invoice /* every tenant: retention */ WHERE due < now()");
    }

    @Test
    void aPackageOverAQuarterOfTheLinesIsFound(@TempDir Path sources) throws IOException {
        Path big = Files.createDirectories(sources.resolve("dev/x/big"));
        Files.writeString(big.resolve("Big.java"), "a\n".repeat(30));
        for (int i = 0; i < 7; i++) {
            Path small = Files.createDirectories(sources.resolve("dev/x/small" + i));
            Files.writeString(small.resolve("Small.java"), "a\n".repeat(10));
        }
        assertThat(SourceRules.oversizedPackages(sources, ServiceArchitectureTest.MAX_PACKAGE_SHARE))
                .singleElement().asString().startsWith("dev.x.big holds 30 of 100 lines");
    }

    private static Path planted() {
        return Path.of("src/test/resources/planted-db");
    }
}
