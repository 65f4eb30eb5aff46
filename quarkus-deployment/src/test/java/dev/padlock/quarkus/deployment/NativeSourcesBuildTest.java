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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * A native-sources build (everything native-image would get, without running it) succeeds with Padlock, and its
 * generated configuration carries the lock classes. It also checks, without a native build, what made native builds
 * fail before (the native executables themselves are built by {@code .ci/native}): Redisson's own reflection
 * configuration is replaced by Padlock's registrations, and the Redisson classes native-image gets name no Netty 4.2
 * io_uring class outside the substituted {@code createIOUringGroup}.
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

    @Test
    void redissonsReflectionConfigIsReplacedByPadlocksRegistrations() throws IOException {
        Path sources = nativeSources();
        assertThat(Files.readString(sources.resolve("native-image.args")))
                .as("native-image.args")
                .contains("--exclude-config")
                .contains(RedissonReflectConfig.RESOURCE_PATTERN);
        assertThat(generatedNativeConfig(sources))
                .as("Redisson's entries, registered by Padlock")
                .contains("org.redisson.codec.Kryo5Codec")
                .contains("org.redisson.RedissonBucket");
    }

    @Test
    void redissonsClassesInTheImageNameNoIoUringClass() throws IOException {
        // Quarkus puts transformed classes into the runner jar and leaves them out of the library's jar.
        Path sources = nativeSources();
        List<String> found = new ArrayList<>();
        try (ZipFile runner = new ZipFile(runnerJar(sources).toFile())) {
            for (String name : RedissonIoUringReferences.CLASSES) {
                ZipEntry entry = runner.getEntry(name.replace('.', '/') + ".class");
                assertThat(entry).as("%s rewritten into the runner jar", name).isNotNull();
                try (InputStream in = runner.getInputStream(entry)) {
                    found.addAll(ioUringReferences(in.readAllBytes()));
                }
            }
        }
        assertThat(found)
                .as("io_uring classes named outside createIOUringGroup")
                .isEmpty();
    }

    /** Each instruction naming an io_uring class, as {@code Class#method: what}, outside the substituted method. */
    private static List<String> ioUringReferences(byte[] bytecode) {
        List<String> found = new ArrayList<>();
        ClassReader reader = new ClassReader(bytecode);
        reader.accept(
                new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public MethodVisitor visitMethod(
                            int access, String method, String descriptor, String signature, String[] exceptions) {
                        if (method.equals("createIOUringGroup")) {
                            return null;
                        }
                        String where = reader.getClassName() + "#" + method + ": ";
                        return new MethodVisitor(Opcodes.ASM9) {
                            @Override
                            public void visitLdcInsn(Object value) {
                                if (value instanceof Type type
                                        && type.getDescriptor().contains(RedissonIoUringReferences.IO_URING_PACKAGE)) {
                                    found.add(where + type.getClassName());
                                }
                            }

                            @Override
                            public void visitFieldInsn(int opcode, String owner, String name, String desc) {
                                if (owner.startsWith(RedissonIoUringReferences.IO_URING_PACKAGE)) {
                                    found.add(where + owner + "." + name);
                                }
                            }

                            @Override
                            public void visitMethodInsn(
                                    int opcode, String owner, String name, String desc, boolean isInterface) {
                                if (owner.startsWith(RedissonIoUringReferences.IO_URING_PACKAGE)) {
                                    found.add(where + owner + "." + name);
                                }
                            }

                            @Override
                            public void visitTypeInsn(int opcode, String type) {
                                if (type.startsWith(RedissonIoUringReferences.IO_URING_PACKAGE)) {
                                    found.add(where + type);
                                }
                            }
                        };
                    }
                },
                0);
        return found;
    }

    private Path nativeSources() throws IOException {
        try (Stream<Path> files = Files.walk(results.getBuildDir())) {
            return files.filter(p -> p.getFileName().toString().equals("native-image.args"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no native-image.args under " + results.getBuildDir()))
                    .getParent();
        }
    }

    private static Path runnerJar(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith("-runner.jar"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no runner jar in " + dir));
        }
    }

    /** The reflection config Quarkus generated into the runner jar (libraries' own configs excluded). */
    private static String generatedNativeConfig(Path dir) throws IOException {
        Path runner = runnerJar(dir);
        try (ZipFile zip = new ZipFile(runner.toFile())) {
            ZipEntry entry = zip.getEntry("META-INF/native-image/reflect-config.json");
            assertThat(entry).as("generated reflect-config.json in " + runner).isNotNull();
            try (InputStream in = zip.getInputStream(entry)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
    }
}
