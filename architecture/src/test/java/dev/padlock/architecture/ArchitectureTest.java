package dev.padlock.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.core.importer.Locations;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.padlock.ReachesIntoTheEngineFromTheApi;
import dev.padlock.architecture.fixture.CycleStart;
import dev.padlock.architecture.fixture.other.CycleEnd;
import dev.padlock.cdi.ReachesIntoACall;
import dev.padlock.core.events.ReachesUpToTheEngine;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The structure of Padlock's main code, every published module together (the package map: docs/internals/architecture.md).
 * No two classes depend on each other through any chain, and no two packages; the public API depends on nothing of
 * Padlock's; the engine's packages ("rooms") depend one way, down the map; the integrations and the test kit reach the
 * engine only through the rooms meant for them. Each rule is also run once on a fixture that breaks it, so none of
 * them can pass because it checks nothing.
 */
class ArchitectureTest {

    private static final String API = "dev.padlock";
    private static final String CORE = "dev.padlock.core";

    /** Every main class of the published modules (this module's dependencies), none of the tests or fixtures. */
    private static JavaClasses main;

    private static Set<Location> mainLocations;

    @BeforeAll
    static void importMainClasses() {
        mainLocations = Locations.ofPackage(API).stream()
                .filter(location -> !location.contains("/test-classes/"))
                .collect(Collectors.toSet());
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importLocations(mainLocations);
        assertThat(main.contain("dev.padlock.core.engine.PadlockEngine")
                        && main.contain("dev.padlock.cdi.PadlockExtension")
                        && main.contain("dev.padlock.testing.RedisServer")
                        && main.contain("dev.padlock.redisserver.ServerProcess")
                        && main.contain("dev.padlock.testkit.PadlockAssert")
                        && main.contain("dev.padlock.fencing.JdbcFence")
                        && main.contain("dev.padlock.quarkus.deployment.PadlockProcessor")
                        && main.contain("dev.padlock.quarkus.runtime.internal.PadlockRecorder"))
                .as("the main classes of every published module are imported")
                .isTrue();
    }

    @Test
    void classesFormNoCycle() {
        classCycles().check(main);
    }

    @Test
    void packagesFormNoCycle() {
        packageCycles().check(main);
    }

    @Test
    void publicApiDependsOnlyOnTheJdkAndJakarta() {
        apiRule().check(main);
    }

    @Test
    void engineRoomsDependOnlyDownward() {
        rooms().check(main);
    }

    @Test
    void integrationsUseTheFrontDoorNotTheCallRooms() {
        integrations().check(main);
    }

    /** Each rule fails on a fixture that breaks it: a rule that cannot fail would prove nothing. */
    @Test
    void everyRuleFailsOnAFixtureThatBreaksIt() {
        assertViolation(classCycles(), CycleStart.class, CycleEnd.class);
        assertViolation(packageCycles(), CycleStart.class, CycleEnd.class);
        assertViolation(apiRule(), ReachesIntoTheEngineFromTheApi.class);
        assertViolation(rooms(), ReachesUpToTheEngine.class);
        assertViolation(integrations(), ReachesIntoACall.class);
    }

    /** Evaluates {@code rule} on the main classes and {@code fixtures}: it must fail, naming the first fixture. */
    private static void assertViolation(ArchRule rule, Class<?>... fixtures) {
        Set<Location> locations = new HashSet<>(mainLocations);
        for (Class<?> fixture : fixtures) {
            locations.add(Location.of(fixture.getResource(fixture.getSimpleName() + ".class")));
        }
        JavaClasses classes = new ClassFileImporter().importLocations(locations);
        EvaluationResult result = rule.evaluate(classes);
        assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
        assertThat(result.getFailureReport().toString()).contains(fixtures[0].getName());
    }

    private static ArchRule classCycles() {
        return slices().assignedFrom(EACH_TOP_LEVEL_CLASS)
                .should()
                .beFreeOfCycles()
                .because("classes that depend on each other through any chain can be understood, tested and moved"
                        + " only together: pass what the lower class needs in (a value, a LongSupplier, a small"
                        + " interface it declares and the upper class implements) instead of naming the upper class;"
                        + " a factory that names its products lives beside them, not in their supertype");
    }

    private static ArchRule packageCycles() {
        return slices().assignedFrom(EACH_PACKAGE)
                .should()
                .beFreeOfCycles()
                .because("a package cycle means neither package can be understood, tested or moved alone: move the"
                        + " shared piece down into the lower package, or pass what the lower package needs in as a"
                        + " value instead of calling back up");
    }

    private static ArchRule apiRule() {
        return classes()
                .that()
                .resideInAPackage(API)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "jakarta..", "io.smallrye.mutiny", API)
                .because("the API is what applications compile against, and the engine under it may change in any"
                        + " release: keep what the API needs in the API package itself, package-private, or let the"
                        + " engine compute it and pass it in through a public constructor. Mutiny's Uni and Multi are"
                        + " the one exception, in LockRequest.uni/multi: Mutiny is optional, and a JVM loads it only"
                        + " when those are called");
    }

    /**
     * The engine's packages, bottom to top (docs/internals/architecture.md); each may depend on the ones listed, the API and
     * itself. No layer is optional: a mistyped or emptied package fails the rule instead of defining nothing.
     */
    private static ArchRule rooms() {
        return layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("api")
                .definedBy(API)
                .layer("shared")
                .definedBy(CORE)
                .layer("config")
                .definedBy(CORE + ".config")
                .layer("shape")
                .definedBy(CORE + ".shape")
                .layer("redis")
                .definedBy(CORE + ".redis")
                .layer("key")
                .definedBy(CORE + ".key")
                .layer("plan")
                .definedBy(CORE + ".plan")
                .layer("client")
                .definedBy(CORE + ".client")
                .layer("server")
                .definedBy(CORE + ".server")
                .layer("setup")
                .definedBy(CORE + ".setup")
                .layer("events")
                .definedBy(CORE + ".events")
                .layer("metrics")
                .definedBy(CORE + ".metrics")
                .layer("tracing")
                .definedBy(CORE + ".tracing")
                .layer("turns")
                .definedBy(CORE + ".turns")
                .layer("call")
                .definedBy(CORE + ".call")
                .layer("lease")
                .definedBy(CORE + ".lease")
                .layer("operation")
                .definedBy(CORE + ".operation")
                .layer("transaction")
                .definedBy(CORE + ".transaction")
                .layer("programmatic")
                .definedBy(CORE + ".programmatic")
                .layer("engine")
                .definedBy(CORE + ".engine")
                .whereLayer("shared")
                .mayOnlyAccessLayers("api")
                .whereLayer("config")
                .mayOnlyAccessLayers("api")
                .whereLayer("shape")
                .mayOnlyAccessLayers("api")
                .whereLayer("redis")
                .mayOnlyAccessLayers("api")
                .whereLayer("key")
                .mayOnlyAccessLayers("api", "config", "shape")
                .whereLayer("plan")
                .mayOnlyAccessLayers("api", "config", "shape", "redis", "key")
                .whereLayer("client")
                .mayOnlyAccessLayers("api", "shared", "config")
                .whereLayer("server")
                .mayOnlyAccessLayers("api", "shared", "config", "redis", "client")
                .whereLayer("setup")
                .mayOnlyAccessLayers("api", "shared", "config", "shape", "redis", "key", "plan", "client")
                .whereLayer("events")
                .mayOnlyAccessLayers("api", "shared")
                .whereLayer("metrics")
                .mayOnlyAccessLayers("api", "events")
                .whereLayer("tracing")
                .mayOnlyAccessLayers("api", "events")
                .whereLayer("turns")
                .mayOnlyAccessLayers("api", "shared", "events")
                .whereLayer("call")
                .mayOnlyAccessLayers("api", "shared", "config", "shape", "redis", "key", "plan", "events", "turns")
                .whereLayer("lease")
                .mayOnlyAccessLayers(
                        "api", "shared", "config", "shape", "redis", "key", "plan", "server", "events", "turns", "call")
                .whereLayer("operation")
                .mayOnlyAccessLayers(
                        "api", "shared", "config", "shape", "redis", "key", "plan", "client", "server", "events",
                        "turns", "call", "lease")
                .whereLayer("transaction")
                .mayOnlyAccessLayers("api", "shared", "config", "call", "operation")
                .whereLayer("programmatic")
                .mayOnlyAccessLayers(
                        "api",
                        "shared",
                        "config",
                        "shape",
                        "redis",
                        "key",
                        "plan",
                        "client",
                        "server",
                        "events",
                        "turns",
                        "call",
                        "lease",
                        "operation")
                .whereLayer("engine")
                .mayOnlyAccessLayers(
                        "api",
                        "shared",
                        "config",
                        "shape",
                        "redis",
                        "key",
                        "plan",
                        "client",
                        "server",
                        "setup",
                        "events",
                        "turns",
                        "call",
                        "lease",
                        "operation",
                        "transaction",
                        "programmatic")
                .because(
                        "dependencies point down the package map (docs/internals/architecture.md), so a change to a lower"
                                + " room never needs the ones above it: move what a lower room needs down into it, or have the"
                                + " upper room hand it over as a value or through an interface the lower room declares");
    }

    /**
     * The integrations (the portable extension, the Quarkus runtime and build steps) collect, plan, report and
     * declare: they reach the engine through its front door ({@code core.engine}), the set-up pipeline and what
     * observes it, never into the rooms one call runs through. The test kit reads a call bound to a thread ({@code
     * BoundCall}) and Redis's data, nothing of how a call runs.
     */
    private static ArchRule integrations() {
        return noClasses()
                .that()
                .resideInAnyPackage("dev.padlock.cdi..", "dev.padlock.quarkus..", "dev.padlock.testkit..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        CORE + ".turns..", CORE + ".lease..", CORE + ".operation..", CORE + ".programmatic..")
                .orShould()
                .dependOnClassesThat(JavaClass.Predicates.resideInAPackage(CORE + ".call")
                        .and(JavaClass.Predicates.simpleName("BoundCall").negate()))
                .because("a call's rooms (turns, call, lease, operation, programmatic) change with the engine;"
                        + " an integration that needs something of them asks the front door (core.engine) for it");
    }

    /** Each top-level class its own slice, with its nested classes. */
    private static final SliceAssignment EACH_TOP_LEVEL_CLASS = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getName();
            if (!name.startsWith(API + ".")) {
                return SliceIdentifier.ignore();
            }
            int nested = name.indexOf('$');
            return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
        }

        @Override
        public String getDescription() {
            return "each top-level class under " + API;
        }
    };

    /** Each package its own slice, the API package {@code dev.padlock} included. */
    private static final SliceAssignment EACH_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            return pkg.equals(API) || pkg.startsWith(API + ".") ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package under " + API;
        }
    };
}
