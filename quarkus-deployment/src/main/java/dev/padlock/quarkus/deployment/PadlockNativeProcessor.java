package dev.padlock.quarkus.deployment;

import dev.padlock.core.config.ConfigKeys;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.BytecodeTransformerBuildItem;
import io.quarkus.deployment.builditem.ExtensionSslNativeSupportBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ExcludeConfigBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveFieldBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveMethodBuildItem;
import io.quarkus.deployment.pkg.builditem.CurateOutcomeBuildItem;
import io.quarkus.deployment.pkg.steps.NativeOrNativeSourcesBuild;
import io.quarkus.maven.dependency.ResolvedDependency;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/** What a native image needs for Padlock, each with the reason it is needed. */
class PadlockNativeProcessor {

    private static final Logger LOG = Logger.getLogger(PadlockNativeProcessor.class);

    /**
     * Redisson's own reflect-config lists its lock classes (its object-reference machinery reflects on them)
     * but not the fenced and non-reentrant ones, which Padlock uses; the list is complete so a later Redisson
     * dropping an entry does not break Padlock.
     */
    static final List<String> REDISSON_LOCKS = List.of(
            "org.redisson.RedissonFairLock",
            "org.redisson.RedissonFencedLock",
            "org.redisson.RedissonLock",
            "org.redisson.RedissonNonReentrantFairLock",
            "org.redisson.RedissonNonReentrantLock",
            "org.redisson.RedissonReadLock",
            "org.redisson.RedissonReadWriteLock",
            "org.redisson.RedissonSpinLock",
            "org.redisson.RedissonWriteLock");

    /** {@code rediss://} and {@code valkeys://} addresses need the JDK's TLS in the image. */
    @BuildStep
    ExtensionSslNativeSupportBuildItem ssl() {
        return new ExtensionSslNativeSupportBuildItem(PadlockProcessor.FEATURE);
    }

    @BuildStep
    void reflection(
            List<LockedMethodBuildItem> locked,
            BuildProducer<ReflectiveClassBuildItem> classes,
            BuildProducer<ReflectiveMethodBuildItem> methods) {
        classes.produce(ReflectiveClassBuildItem.builder(REDISSON_LOCKS.toArray(new String[0]))
                .reason("Padlock: Redisson lock classes missing from Redisson's reflect-config")
                .constructors()
                .methods()
                .build());
        // Start-up finds each recorded @Locked method with getDeclaredMethod to key its operation.
        SortedSet<String> keyPathTypes = new TreeSet<>();
        for (LockedMethodBuildItem m : locked) {
            methods.produce(new ReflectiveMethodBuildItem(
                    "Padlock: @Locked method looked up at start-up",
                    m.declaringClass(),
                    m.name(),
                    m.parameterTypes().toArray(new String[0])));
            keyPathTypes.addAll(m.keyPathTypes());
        }
        // Key templates such as {order.customer.id} read getters, record components or fields reflectively.
        if (!keyPathTypes.isEmpty()) {
            classes.produce(ReflectiveClassBuildItem.builder(keyPathTypes.toArray(new String[0]))
                    .reason("Padlock: types whose properties @Locked key templates read")
                    .methods()
                    .fields()
                    .build());
        }
    }

    /**
     * Redisson's reflect-config.json, minus the entries the application cannot link (see {@link
     * RedissonReflectConfig}): native-image gets Padlock's filtered copy instead of Redisson's file, so an application
     * without Jackson builds, and one with Jackson keeps the Jackson codec.
     */
    @BuildStep(onlyIf = NativeOrNativeSourcesBuild.class)
    void redissonReflection(
            CurateOutcomeBuildItem curate,
            BuildProducer<ExcludeConfigBuildItem> excluded,
            BuildProducer<ReflectiveClassBuildItem> classes,
            BuildProducer<ReflectiveMethodBuildItem> methods,
            BuildProducer<ReflectiveFieldBuildItem> fields) {
        try (URLClassLoader application = runtimeClassPath(curate)) {
            List<RedissonReflectConfig.Entry> entries = RedissonReflectConfig.read(application);
            if (entries.isEmpty()) {
                return;
            }
            excluded.produce(new ExcludeConfigBuildItem(
                    RedissonReflectConfig.JAR_PATTERN, RedissonReflectConfig.RESOURCE_PATTERN));
            SortedMap<String, String> leftOut = new TreeMap<>();
            String reason = "Padlock: Redisson's " + RedissonReflectConfig.RESOURCE;
            for (RedissonReflectConfig.Entry entry : entries) {
                String why = RedissonReflectConfig.unlinkable(entry, application);
                if (why != null) {
                    leftOut.put(entry.className(), why);
                    continue;
                }
                classes.produce(ReflectiveClassBuildItem.builder(entry.className())
                        .reason(reason)
                        .constructors(entry.constructors())
                        .methods(entry.methods())
                        .fields(entry.fields())
                        .build());
                for (RedissonReflectConfig.MethodName method : entry.methodNames()) {
                    methods.produce(new ReflectiveMethodBuildItem(
                            reason,
                            entry.className(),
                            method.name(),
                            method.parameterTypes().toArray(new String[0])));
                }
                for (String field : entry.fieldNames()) {
                    fields.produce(new ReflectiveFieldBuildItem(reason, entry.className(), field));
                }
            }
            leftOut.forEach((name, why) -> LOG.debugf(
                    "Redisson's native registration of %s left out: the application cannot link it (%s)", name, why));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Redisson's remaining references to Netty 4.2's io_uring classes, rewritten when the application's Netty lacks
     * them (Quarkus brings 4.1): see {@link RedissonIoUringReferences}. JVM builds keep Redisson's classes as they are.
     */
    @BuildStep(onlyIf = NativeOrNativeSourcesBuild.class)
    void redissonWithoutIoUring(CurateOutcomeBuildItem curate, BuildProducer<BytecodeTransformerBuildItem> transformers)
            throws IOException {
        try (URLClassLoader application = runtimeClassPath(curate)) {
            if (application.getResource(RedissonIoUringReferences.PROBE.replace('.', '/') + ".class") != null) {
                return;
            }
        }
        for (String redissonClass : RedissonIoUringReferences.CLASSES) {
            transformers.produce(new BytecodeTransformerBuildItem(redissonClass, RedissonIoUringReferences.rewriter()));
        }
    }

    /** The application's run-time class path alone: the build's class loader also sees deployment-only jars. */
    private static URLClassLoader runtimeClassPath(CurateOutcomeBuildItem curate) {
        List<URL> urls = new ArrayList<>();
        List<ResolvedDependency> artifacts =
                new ArrayList<>(curate.getApplicationModel().getRuntimeDependencies());
        artifacts.add(curate.getApplicationModel().getAppArtifact());
        for (ResolvedDependency artifact : artifacts) {
            for (Path path : artifact.getResolvedPaths()) {
                try {
                    urls.add(path.toUri().toURL());
                } catch (MalformedURLException e) {
                    throw new IllegalStateException("Padlock cannot use " + path + " of " + artifact, e);
                }
            }
        }
        return new URLClassLoader(
                "padlock-native-check", urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    /** A Redisson YAML named as a class-path resource must be in the image to be read at start-up. */
    @BuildStep
    void configFile(BuildProducer<NativeImageResourceBuildItem> resources) {
        ConfigProvider.getConfig()
                .getOptionalValue(ConfigKeys.REDIS_CONFIG_FILE, String.class)
                .filter(name -> Thread.currentThread().getContextClassLoader().getResource(name) != null)
                .ifPresent(name -> resources.produce(new NativeImageResourceBuildItem(name)));
    }
}
