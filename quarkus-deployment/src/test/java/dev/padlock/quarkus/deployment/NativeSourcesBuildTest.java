package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.arc.Unremovable;
import io.quarkus.test.ProdBuildResults;
import io.quarkus.test.ProdModeTestResults;
import io.quarkus.test.QuarkusProdModeTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A native-sources build (everything native-image would get, without GraalVM, which these machines lack)
 * succeeds with Padlock, and its generated configuration carries the lock classes.
 */
class NativeSourcesBuildTest {

    @ApplicationScoped
    @Unremovable // nothing injects it here; an unused bean needs no native registrations
    public static class Stock {
        @Locked(value = "stock", key = "{sku}")
        public void reserve(String sku) {}
    }

    @RegisterExtension
    static final QuarkusProdModeTest build = new QuarkusProdModeTest()
            .withApplicationRoot(jar -> jar.addClasses(Stock.class))
            .setApplicationName("padlock-native-sources")
            .overrideConfigKey("quarkus.native.enabled", "true")
            .overrideConfigKey("quarkus.native.sources-only", "true")
            .setRun(false);

    @ProdBuildResults
    ProdModeTestResults results;

    @Test
    void producesNativeSourcesWhoseConfigCarriesTheLockClasses() throws IOException {
        List<Path> args;
        try (Stream<Path> files = Files.walk(results.getBuildDir())) {
            args = files.filter(p -> p.getFileName().toString().equals("native-image.args"))
                    .toList();
        }
        assertThat(args).as("native-image.args written").isNotEmpty();
        String allConfig = generatedNativeConfig(args.get(0).getParent());
        assertThat(allConfig)
                .contains("org.redisson.RedissonFencedLock")
                .contains("org.redisson.RedissonNonReentrantLock")
                .contains(Stock.class.getName());
    }

    /** The reflection config Quarkus generated into the runner jar (libraries' own configs excluded). */
    private static String generatedNativeConfig(Path dir) throws IOException {
        Path runner;
        try (Stream<Path> files = Files.list(dir)) {
            runner = files.filter(p -> p.getFileName().toString().endsWith("-runner.jar"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no runner jar in " + dir));
        }
        try (ZipFile zip = new ZipFile(runner.toFile())) {
            ZipEntry entry = zip.getEntry("META-INF/native-image/reflect-config.json");
            assertThat(entry).as("generated reflect-config.json in " + runner).isNotNull();
            try (InputStream in = zip.getInputStream(entry)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
    }
}
