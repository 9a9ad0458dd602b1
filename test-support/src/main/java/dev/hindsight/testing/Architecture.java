package dev.hindsight.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules every module's code keeps, checked on its compiled classes (not its tests) by the module's
 * {@code ArchitectureTest}:
 * <ul>
 * <li>its packages form no cycle (a package depends on another, or the other on it, never both, even through
 * others);</li>
 * <li>a service uses no other service's code: they share only {@code platform}, {@code schemas} and
 * {@code memory-model}, and talk over Kafka and HTTP; {@code platform} uses no service;</li>
 * <li>a REST resource (a class annotated {@code @Path}) never touches the database: it calls a repository or query
 * class, which holds the SQL;</li>
 * <li>a feature package (one directly under the service's root) is used by the service's other packages only
 * through the types its {@code @FeatureApi} offers.</li>
 * </ul>
 */
public final class Architecture {

    /** Each service's own packages. */
    private static final List<Module> SERVICES = List.of(
            new Module("ingest-service", "dev.hindsight.ingest.."),
            new Module("query-service", "dev.hindsight.query.."),
            new Module("evaluation-service", "dev.hindsight.evaluation.."),
            new Module("memory-service", "dev.hindsight.memory.."));

    private static final String[] DATABASE = {"io.vertx.sqlclient..", "io.vertx.mutiny.sqlclient..",
        "io.vertx.pgclient..", "io.vertx.mutiny.pgclient..", "java.sql..", "javax.sql..", "org.postgresql.."};

    private record Module(String name, String... packages) {
    }

    private Architecture() {
    }

    /** The compiled main classes under {@code rootPackage}, not tests. */
    public static JavaClasses classes(String rootPackage) {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(rootPackage);
    }

    /** The rules for service {@code service} (its module name, e.g. {@code query-service}) rooted at its package. */
    public static List<ArchRule> serviceRules(String service, String rootPackage) {
        List<ArchRule> rules = new ArrayList<>();
        rules.add(noCycles(rootPackage));
        List<String> others = new ArrayList<>();
        SERVICES.stream().filter(module -> !module.name().equals(service))
                .forEach(module -> others.addAll(List.of(module.packages())));
        rules.add(noClasses().should().dependOnClassesThat().resideInAnyPackage(others.toArray(String[]::new))
                .as(service + " uses no other service's code"));
        rules.add(noClasses().that().areAnnotatedWith("jakarta.ws.rs.Path")
                .should().dependOnClassesThat().resideInAnyPackage(DATABASE)
                .as("REST resources of " + service + " never touch the database (a repository or query class "
                        + "holds the SQL)")
                .allowEmptyShould(true));
        rules.add(FeatureApis.rule(rootPackage));
        return rules;
    }

    /** The rules for {@code platform}: no cycles, and no service's code. */
    public static List<ArchRule> platformRules() {
        List<String> services = new ArrayList<>();
        SERVICES.forEach(module -> services.addAll(List.of(module.packages())));
        return List.of(noCycles("dev.hindsight.platform"),
                noClasses().should().dependOnClassesThat().resideInAnyPackage(services.toArray(String[]::new))
                        .as("platform uses no service's code"));
    }

    private static ArchRule noCycles(String rootPackage) {
        return slices().matching(rootPackage + ".(*)..").should().beFreeOfCycles()
                .as("the packages under " + rootPackage + " form no cycle");
    }
}
