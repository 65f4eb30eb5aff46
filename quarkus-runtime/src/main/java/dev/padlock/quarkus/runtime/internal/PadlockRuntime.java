package dev.padlock.quarkus.runtime.internal;

import dev.padlock.LockLost;
import dev.padlock.core.client.ManagedClient;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.client.RedisConnectionSettings;
import dev.padlock.core.client.RedisReachability;
import dev.padlock.core.client.ResolvedOnce;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.engine.EngineWiring;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.core.events.CompositeLockEvents;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.plan.NamedLocks;
import dev.padlock.core.server.ServerFindings;
import dev.padlock.core.setup.PadlockSetup;
import dev.padlock.core.setup.PadlockSetup.Connection;
import dev.padlock.core.shape.ReflectedShapes;
import dev.padlock.core.transaction.JtaTransactions;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ClientProxy;
import io.quarkus.arc.InjectableBean;
import io.quarkus.arc.InstanceHandle;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.config.ConfigProvider;
import org.redisson.api.RedissonClient;

/**
 * Padlock's state in a running Quarkus application. The build validated templates and types against Jandex;
 * here the same rules run once more against run-time configuration ({@code padlock.*} may differ from what
 * the build saw), and any problem stops the start-up, all at once.
 */
public final class PadlockRuntime {

    private static final System.Logger LOG = System.getLogger(PadlockRuntime.class.getName());

    private volatile PadlockEngine engine;
    private volatile ManagedClient managedClient;
    private volatile RedisReachability reachability;
    private volatile ServerFindings serverFindings;
    private final Map<String, NamedLocks.NamedLock> namedLocks = new HashMap<>();

    /**
     * @param meters Padlock's meters in {@code quarkus-micrometer}'s registry when the build found it, else none
     * @param spans acquisitions as spans when the build found {@code quarkus-opentelemetry}'s tracer, else none
     */
    void start(List<LockedMethod> methods, List<NamedLockPoint> points, LockEvents meters, LockEvents spans) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        List<PadlockSetup.LockedMethod<Method>> lockedMethods = new ArrayList<>();
        for (LockedMethod m : methods) {
            Method method = load(m, loader);
            lockedMethods.add(new PadlockSetup.LockedMethod<>(
                    method, ReflectedShapes.of(method, names(m)), LockedSpec.of(m.getLocked())));
        }
        // The same rules as at build time, on run-time configuration: padlock.* may differ from what the build saw.
        PadlockSetup<Method> setup = PadlockSetup.plan(
                QuarkusRedisHosts.bridge(ConfigView.of(ConfigProvider.getConfig())),
                lockedMethods,
                points.stream().map(NamedLockPoint::injectionPoint).toList(),
                Connection.PADLOCK_CLIENT,
                loader);
        if (!setup.problems().isEmpty()) {
            throw new IllegalStateException(setup.problems().summary("Padlock cannot start,"));
        }
        PadlockEngine newEngine = PadlockEngine.start(
                setup,
                EngineWiring.of(
                                new EngineClient(),
                                // Looked up when a loss is reported, which is rare.
                                loss -> Arc.container()
                                        .beanManager()
                                        .getEvent()
                                        .select(LockLost.class)
                                        .fire(loss))
                        .withCallers(VertxCallerContext.ifPresent(loader))
                        .withEvents(CompositeLockEvents.of(meters, spans))
                        // With quarkus-narayana-jta: looked up on the first call that ends, once the transaction
                        // manager is up.
                        .withTransactions(JtaTransactions.ifPresent(loader, () -> transactionRegistry(loader))));
        setup.namedLocks().forEach(lock -> namedLocks.put(lock.name(), lock));
        if (applicationHasClient()) {
            // The keys as the application set them, not as bridged from quarkus.redis.hosts.
            RedisConnectionSettings.ignoredWithApplicationClient(ConfigView.of(ConfigProvider.getConfig()))
                    .ifPresent(line -> LOG.log(System.Logger.Level.INFO, line));
        }
        managedClient = new ManagedClient(
                QuarkusRedisHosts.namingTheSource(setup.redis(), ConfigView.of(ConfigProvider.getConfig())), loader);
        ServerFindings findings = new ServerFindings(setup.unsafeServer());
        serverFindings = findings;
        CompletableFuture<?> connection;
        if (!applicationHasClient()) {
            managedClient.whenConnected(findings::check);
            // Connect now, in the background: not on the first locked call, on its thread (maybe an event loop).
            connection = managedClient.connectInBackground();
        } else {
            connection = findings.checkWhenResolved(
                    () -> ClientProxy.unwrap(
                            Arc.container().instance(RedissonClient.class).get()),
                    loader);
        }
        reachability = applicationHasClient()
                ? RedisReachability.ofApplicationClient(ResolvedOnce.of(
                        () -> Arc.container().instance(RedissonClient.class).get()))
                : RedisReachability.of(managedClient);
        // Under padlock.redis.unsafe-server=fail only, this waits for the first check.
        Optional<String> refusal = findings.startUpRefusal(connection);
        if (refusal.isPresent()) {
            newEngine.close();
            managedClient.close();
            throw new IllegalStateException(refusal.get());
        }
        newEngine.publishMetrics(ConfigProvider.getConfig()
                .getOptionalValue("quarkus.application.name", String.class)
                .orElse("padlock"));
        engine = newEngine;
    }

    /** Narayana's {@code TransactionSynchronizationRegistry} bean; {@code null} without a transaction manager. */
    private static Object transactionRegistry(ClassLoader loader) {
        try {
            InstanceHandle<?> registry =
                    Arc.container().instance(Class.forName(JtaTransactions.REGISTRY_TYPE, false, loader));
            return registry.isAvailable() ? registry.get() : null;
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /** Padlock's client is a default bean; any other {@code RedissonClient} bean is the application's. */
    private static boolean applicationHasClient() {
        return Arc.container().beanManager().getBeans(RedissonClient.class).stream()
                .anyMatch(bean -> bean instanceof InjectableBean<?> b && !b.isDefaultBean());
    }

    /**
     * The client the engine locks with, decided on the first locked call: Padlock's own, which may still be
     * connecting (callers that must not block then do not wait for it), or else the application's, looked up once.
     */
    private final class EngineClient implements RedisClientSource {
        private volatile RedisClientSource chosen;

        private RedisClientSource chosen() {
            RedisClientSource c = chosen;
            if (c == null) {
                c = applicationHasClient()
                        // The contextual instance, not Arc's client proxy of a normal-scoped bean: the engine
                        // reaches Redisson's own connections through it (replica-confirmed renewals, restarts).
                        ? RedisClientSource.of(ResolvedOnce.of(() -> ClientProxy.unwrap(
                                Arc.container().instance(RedissonClient.class).get())))
                        : started(managedClient);
                chosen = c;
            }
            return c;
        }

        @Override
        public RedissonClient get() {
            return chosen().get();
        }

        @Override
        public RedissonClient getNow() {
            return chosen().getNow();
        }

        @Override
        public CompletableFuture<RedissonClient> ready() {
            return chosen().ready();
        }
    }

    private static List<String> names(LockedMethod m) {
        List<String> names = new ArrayList<>();
        for (String n : m.getParameterNames()) {
            names.add(n.isEmpty() ? null : n);
        }
        return names;
    }

    private static Method load(LockedMethod m, ClassLoader loader) {
        try {
            Class<?> owner = Class.forName(m.getDeclaringClass(), false, loader);
            Class<?>[] types = new Class<?>[m.getParameterTypes().size()];
            for (int i = 0; i < types.length; i++) {
                types[i] = type(m.getParameterTypes().get(i), loader);
            }
            return owner.getDeclaredMethod(m.getName(), types);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "Padlock cannot find the @Locked method " + m.getDeclaringClass() + "#" + m.getName()
                            + " the build recorded; rebuild the application",
                    e);
        }
    }

    private static Class<?> type(String name, ClassLoader loader) throws ClassNotFoundException {
        return switch (name) {
            case "boolean" -> boolean.class;
            case "byte" -> byte.class;
            case "char" -> char.class;
            case "short" -> short.class;
            case "int" -> int.class;
            case "long" -> long.class;
            case "float" -> float.class;
            case "double" -> double.class;
            default -> Class.forName(name, false, loader);
        };
    }

    /** For the readiness check: whether the client Padlock locks with reaches Redis now, and the server's findings. */
    ServerFindings.Readiness readiness() {
        return started(serverFindings).readiness(started(reachability).check());
    }

    /** What the server check last found, for the Dev UI. */
    ServerFindings serverFindings() {
        return started(serverFindings);
    }

    /** The application's engine, for the Dev UI's live view (and the tests that read it). */
    public PadlockEngine engine() {
        return started(engine);
    }

    RedissonClient managedClient() {
        return started(managedClient).get();
    }

    Object namedLock(String name) {
        NamedLocks.NamedLock lock = namedLocks.get(name);
        return lock.create(Arc.container().instance(RedissonClient.class).get());
    }

    void shutdown() {
        PadlockEngine e = engine;
        if (e != null) {
            e.close();
        }
        ManagedClient c = managedClient;
        if (c != null) {
            c.close();
        }
    }

    private static <T> T started(T value) {
        if (value == null) {
            throw new IllegalStateException("Padlock was used before its start-up step ran");
        }
        return value;
    }
}
