package dev.padlock.quarkus.deployment;

import dev.padlock.core.config.ConfigKeys;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.ExtensionSslNativeSupportBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveMethodBuildItem;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.eclipse.microprofile.config.ConfigProvider;

/** What a native image needs for Padlock, each with the reason it is needed. */
class PadlockNativeProcessor {

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

    /** A Redisson YAML named as a class-path resource must be in the image to be read at start-up. */
    @BuildStep
    void configFile(BuildProducer<NativeImageResourceBuildItem> resources) {
        ConfigProvider.getConfig()
                .getOptionalValue(ConfigKeys.REDIS_CONFIG_FILE, String.class)
                .filter(name -> Thread.currentThread().getContextClassLoader().getResource(name) != null)
                .ifPresent(name -> resources.produce(new NativeImageResourceBuildItem(name)));
    }
}
