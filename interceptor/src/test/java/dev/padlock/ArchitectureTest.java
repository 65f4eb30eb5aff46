package dev.padlock;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.net.URISyntaxException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package structure of this module (README, Project layout): the public API depends on nothing of Padlock's, packages form no
 * cycle, and each internal package depends only on the ones below it. Only this module's main classes are checked:
 * other {@code dev.padlock} packages on the test class path (the test support module) are not part of it.
 */
class ArchitectureTest {

    private static final String API = "dev.padlock";

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() throws URISyntaxException {
        String module = Location.of(Locked.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .asURI()
                .toString();
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> location.asURI().toString().startsWith(module))
                .importPackages(API);
    }

    @Test
    void packagesFormNoCycle() {
        slices().assignedFrom(EACH_PACKAGE)
                .should()
                .beFreeOfCycles()
                .because("a package cycle means neither package can be understood, tested or moved alone: move the"
                        + " shared piece down into the lower package (or into the API when users need it), or pass"
                        + " what the lower package needs in as a value instead of calling back up")
                .check(classes);
    }

    @Test
    void publicApiDependsOnlyOnTheJdkAndJakarta() {
        classes()
                .that()
                .resideInAPackage(API)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "jakarta..", "io.smallrye.mutiny", API)
                .because("the API is what applications compile against, and the engine under it may change in any"
                        + " release: keep what the API needs in the API package itself, package-private (as"
                        + " Durations copies the engine's duration format), or let the engine compute it and pass it"
                        + " in through a public constructor. Mutiny's Uni and Multi are the one exception, in"
                        + " LockRequest.uni/multi: Mutiny is optional, and a JVM loads it only when those are called"
                        + " (the Payara example runs Locks without Mutiny)")
                .check(classes);
    }

    /** The layers of the package map, bottom to top; each may be used only by the layers listed, or itself. */
    @Test
    void packagesDependOnlyOnLowerLayers() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .withOptionalLayers(true) // the layers appear as dev.padlock.core is split up
                .layer("api")
                .definedBy(API)
                .layer("config")
                .definedBy("dev.padlock.core.config..")
                .layer("shape")
                .definedBy("dev.padlock.core.shape..")
                .layer("redis")
                .definedBy("dev.padlock.core.redis..")
                .layer("key")
                .definedBy("dev.padlock.core.key..")
                .layer("plan")
                .definedBy("dev.padlock.core.plan..")
                .layer("client")
                .definedBy("dev.padlock.core.client..")
                .layer("setup")
                .definedBy("dev.padlock.core.setup..")
                .layer("core")
                .definedBy("dev.padlock.core")
                .layer("metrics")
                .definedBy("dev.padlock.core.metrics..")
                .layer("tracing")
                .definedBy("dev.padlock.core.tracing..")
                .whereLayer("metrics")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("tracing")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("core")
                .mayOnlyBeAccessedByLayers("metrics", "tracing")
                .whereLayer("setup")
                .mayOnlyBeAccessedByLayers("core")
                .whereLayer("client")
                .mayOnlyBeAccessedByLayers("setup", "core")
                .whereLayer("plan")
                .mayOnlyBeAccessedByLayers("setup", "core")
                .whereLayer("key")
                .mayOnlyBeAccessedByLayers("plan", "setup", "core")
                .whereLayer("redis")
                .mayOnlyBeAccessedByLayers("plan", "setup", "core")
                .whereLayer("shape")
                .mayOnlyBeAccessedByLayers("key", "plan", "setup", "core")
                .whereLayer("config")
                .mayOnlyBeAccessedByLayers("key", "plan", "client", "setup", "core")
                .whereLayer("api")
                .mayOnlyBeAccessedByLayers(
                        "config", "shape", "redis", "key", "plan", "client", "setup", "core", "metrics", "tracing")
                .because(
                        "dependencies point down the package map (README, Project layout), so a change to a lower package"
                                + " never needs the ones above it: move code that a lower package needs down into it, or"
                                + " have the upper package hand it over as a value")
                .check(classes);
    }

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
