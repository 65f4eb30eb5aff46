package dev.padlock.cdi;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.core.client.ManagedClient;
import dev.padlock.core.client.RedisConnectionSettings;
import dev.padlock.core.client.RedisReachability;
import dev.padlock.core.client.ResolvedOnce;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.InterceptorPriority;
import dev.padlock.core.config.Problems;
import dev.padlock.core.engine.CurrentLockContext;
import dev.padlock.core.engine.EngineOptions;
import dev.padlock.core.engine.EngineWiring;
import dev.padlock.core.engine.LockedInterceptor;
import dev.padlock.core.engine.LocksBean;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.core.events.CompositeLockEvents;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.plan.NamedLocks;
import dev.padlock.core.server.ServerFindings;
import dev.padlock.core.setup.PadlockSetup;
import dev.padlock.core.setup.PadlockSetup.Connection;
import dev.padlock.core.shape.MethodShape;
import dev.padlock.core.shape.ReflectedShapes;
import dev.padlock.core.transaction.CallerTransactions;
import dev.padlock.core.transaction.JtaTransactions;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedField;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.enterprise.inject.spi.ProcessBean;
import jakarta.enterprise.inject.spi.ProcessInjectionPoint;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.ConfigProvider;
import org.redisson.api.RedissonClient;

/**
 * Registers {@code @Locked} and its interceptor, checks every {@code @Locked} method and the
 * {@code padlock.*} configuration at deployment (all problems at once, as definition errors), and adds the
 * beans Padlock provides: the {@code RedissonClient} (unless the application has its own) and one bean per
 * {@code @Named} lock injection point.
 *
 * <p>About 380 lines: one observer per container event, in the order CDI fires them, each a step of collect, plan,
 * report, declare over the same collected state; split across classes, they would pass that state around.
 */
public class PadlockExtension implements Extension {

    private static final System.Logger LOG = System.getLogger(PadlockExtension.class.getName());

    private final List<PadlockSetup.LockedMethod<Method>> lockedMethods = new ArrayList<>();
    private final List<NamedLocks.InjectionPoint> namedPoints = new ArrayList<>();
    /** Problems found before the set-up runs (the interceptor's priority), reported with the set-up's. */
    private final Problems earlyProblems = new Problems();

    private boolean applicationHasClient;
    /** Whether the application has a Micrometer {@code MeterRegistry} bean (and Micrometer is where Padlock is). */
    private boolean applicationHasMeterRegistry;
    /** Whether the OpenTelemetry API is where Padlock is: spans are then recorded when the application traces. */
    private boolean openTelemetryVisible;
    /** Whether the application has an {@code OpenTelemetry} bean (else the global one, if set, is used). */
    private boolean applicationHasOpenTelemetry;
    /**
     * Padlock's meters and spans, bound to that registry and tracer once beans can be created; {@code null} with
     * neither Micrometer's registry nor the OpenTelemetry API.
     */
    private DeferredLockEvents meters;

    private boolean deployable;

    private ConfigView config;
    private ManagedClient managedClient;
    /** The application's own client, where it has one; checked as the deployment ends. */
    private Supplier<RedissonClient> applicationClient;

    private ClassLoader loader;
    private ServerFindings serverFindings;
    private PadlockEngine engine;
    private CallerTransactions transactions = CallerTransactions.NONE;
    private final EngineOptions options;

    /** The extension as a container finds it ({@code META-INF/services}): every rule of the engine on. */
    public PadlockExtension() {
        this(EngineOptions.DEFAULTS);
    }

    /**
     * The extension of a test deployment that switches rules of the engine off, to show what they prevent (a Weld SE
     * test adds it with {@code Weld.addExtension}); applications use the no-argument constructor.
     */
    public PadlockExtension(EngineOptions options) {
        this.options = options;
    }

    void registerInterceptor(@Observes BeforeBeanDiscovery event, BeanManager beans) {
        config = ConfigView.of(ConfigProvider.getConfig());
        var interceptor = event.addAnnotatedType(LockedInterceptor.class, LockedInterceptor.class.getName());
        // Also the sign, for MissingExtensionCheck, that this extension runs in the container.
        event.addAnnotatedType(CurrentLockContext.class, CurrentLockContext.class.getName());
        event.addAnnotatedType(LocksBean.class, LocksBean.class.getName());
        InterceptorPriority.read(config, earlyProblems).ifPresent(priority -> interceptor
                .remove(a -> a.annotationType() == Priority.class)
                .add(new PriorityLiteral(priority)));
        if (healthApiPresent()) {
            event.addAnnotatedType(PadlockReadinessCheck.class, PadlockReadinessCheck.class.getName());
        }
        openTelemetryVisible = visible(OPEN_TELEMETRY);
    }

    /** MicroProfile Health is optional: the check's class may be loaded only where the container ships the API. */
    private static boolean healthApiPresent() {
        try {
            Class.forName(
                    "org.eclipse.microprofile.health.HealthCheck", false, PadlockExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Every {@code @Locked} business method of every managed bean, checked at deployment rather than on first call. */
    <T> void collectLockedMethods(@Observes ProcessManagedBean<T> event, BeanManager beans) {
        AnnotatedType<T> type = event.getAnnotatedBeanClass();
        Locked onType = typeBinding(type, beans);
        for (AnnotatedMethod<? super T> annotated : type.getMethods()) {
            Method method = annotated.getJavaMember();
            Locked locked = annotated.getAnnotation(Locked.class);
            if (locked == null) {
                if (onType == null || !isBusinessMethod(method)) {
                    continue;
                }
                locked = onType;
            }
            lockedMethods.add(
                    new PadlockSetup.LockedMethod<>(method, ReflectedShapes.of(method), LockedSpec.of(locked)));
        }
    }

    private static Locked typeBinding(AnnotatedType<?> type, BeanManager beans) {
        Locked direct = type.getAnnotation(Locked.class);
        if (direct != null) {
            return direct;
        }
        for (Annotation a : type.getAnnotations()) {
            if (beans.isStereotype(a.annotationType())) {
                for (Annotation meta : beans.getStereotypeDefinition(a.annotationType())) {
                    if (meta instanceof Locked locked) {
                        return locked;
                    }
                }
            }
        }
        // @Inherited: a superclass's class-level binding applies to the subclass.
        return type.getJavaClass().getAnnotation(Locked.class);
    }

    /** Methods a class-level binding applies to; a method-level binding is checked by the validator. */
    private static boolean isBusinessMethod(Method method) {
        return MethodShape.interceptable(method.getModifiers())
                && !method.isSynthetic()
                && method.getDeclaringClass() != Object.class;
    }

    void collectNamedLocks(@Observes ProcessInjectionPoint<?, ?> event) {
        InjectionPoint ip = event.getInjectionPoint();
        Type type = ip.getType();
        Class<?> raw =
                type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : type instanceof Class<?> c ? c : null;
        if (raw == null) {
            return;
        }
        Optional<NamedLocks.Kind> kind = NamedLocks.Kind.ofTypeName(raw.getName());
        if (kind.isEmpty()) {
            return;
        }
        for (Annotation q : ip.getQualifiers()) {
            if (q instanceof Named named) {
                String name = named.value();
                if (name.isEmpty() && ip.getAnnotated() instanceof AnnotatedField<?> field) {
                    name = field.getJavaMember().getName(); // CDI's default name of a @Named field
                }
                namedPoints.add(new NamedLocks.InjectionPoint(name, kind.get(), describe(ip)));
            }
        }
    }

    private static String describe(InjectionPoint ip) {
        String owner = ip.getMember().getDeclaringClass().getName();
        return ip.getAnnotated() instanceof AnnotatedField<?>
                ? "field " + owner + "." + ip.getMember().getName()
                : "parameter of " + owner + "#" + ip.getMember().getName();
    }

    /** An application that produces its own {@code RedissonClient} keeps it; Padlock then creates none. */
    void detectApplicationClient(@Observes ProcessBean<?> event) {
        if (event.getBean().getTypes().contains(RedissonClient.class)) {
            applicationHasClient = true;
        }
    }

    /** Metrics go to the application's Micrometer registry when it has one; Micrometer is never required. */
    void detectMeterRegistry(@Observes ProcessBean<?> event) {
        if (!applicationHasMeterRegistry && isMeterRegistry(event.getBean().getTypes()) && micrometerIsVisible()) {
            applicationHasMeterRegistry = true;
        }
    }

    /** Spans go to the application's OpenTelemetry when it has the API; OpenTelemetry is never required. */
    void detectOpenTelemetry(@Observes ProcessBean<?> event) {
        if (!applicationHasOpenTelemetry
                && isOfType(event.getBean().getTypes(), OPEN_TELEMETRY)
                && openTelemetryVisible) {
            applicationHasOpenTelemetry = true;
        }
    }

    private static final String METER_REGISTRY = "io.micrometer.core.instrument.MeterRegistry";
    private static final String OPEN_TELEMETRY = "io.opentelemetry.api.OpenTelemetry";

    /** Compared by name, so that nothing of Micrometer is loaded here. */
    private static boolean isMeterRegistry(Set<Type> beanTypes) {
        return isOfType(beanTypes, METER_REGISTRY);
    }

    private static boolean isOfType(Set<Type> beanTypes, String className) {
        return beanTypes.stream()
                .anyMatch(type -> type instanceof Class<?> c && c.getName().equals(className));
    }

    /** Whether Padlock's own class loader sees Micrometer (an application's copy may be out of its reach). */
    private static boolean micrometerIsVisible() {
        return visible(METER_REGISTRY);
    }

    private static boolean visible(String className) {
        try {
            Class.forName(className, false, PadlockExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    void addBeans(@Observes AfterBeanDiscovery event, BeanManager beans) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        PadlockSetup<Method> setup = PadlockSetup.plan(
                config,
                lockedMethods,
                namedPoints,
                applicationHasClient ? Connection.APPLICATION_CLIENT : Connection.PADLOCK_CLIENT,
                loader);
        lockedMethods.clear();
        Problems problems = new Problems();
        problems.addAll(earlyProblems.list());
        problems.addAll(setup.problems().list());

        Supplier<RedissonClient> client;
        RedisReachability reachability;
        ServerFindings findings = new ServerFindings(setup.unsafeServer());
        this.serverFindings = findings;
        this.loader = loader;
        if (applicationHasClient) {
            // The application's own client, looked up once on first use rather than per call.
            client = ResolvedOnce.of(() -> ContextualClient.of(
                    beans.createInstance().select(RedissonClient.class).get()));
            applicationClient = client;
            reachability = RedisReachability.ofApplicationClient(client);
        } else {
            managedClient = new ManagedClient(setup.redis(), loader);
            managedClient.whenConnected(findings::check);
            client = managedClient;
            reachability = RedisReachability.of(managedClient);
            event.addBean()
                    .types(RedissonClient.class, Object.class)
                    .qualifiers(Any.Literal.INSTANCE, Default.Literal.INSTANCE)
                    .scope(Singleton.class)
                    .createWith(c -> managedClient.get());
        }
        for (NamedLocks.NamedLock lock : setup.namedLocks()) {
            event.addBean()
                    .types(lock.kind().type(), Object.class)
                    .qualifiers(Any.Literal.INSTANCE, NamedLiteral.of(lock.name()))
                    .scope(Dependent.class)
                    .createWith(c -> lock.create(client.get()));
        }
        // Looked up when a loss is reported (rare), not at deployment, when events cannot be fired yet.
        // With the OpenTelemetry API, whether the application traces is known only once beans can be created.
        meters = applicationHasMeterRegistry || openTelemetryVisible ? new DeferredLockEvents() : null;
        // The container's transaction manager, where Jakarta Transactions is on the class path: looked up once the
        // deployment is valid (ready), where the application's naming context is at hand.
        transactions = JtaTransactions.ifPresent(loader, () -> transactionRegistry(beans, loader));
        PadlockEngine engine = PadlockEngine.start(
                setup,
                EngineWiring.of(
                                client,
                                loss -> beans.getEvent().select(LockLost.class).fire(loss))
                        .withEvents(meters != null ? meters : LockEvents.NONE)
                        .withTransactions(transactions)
                        .withOptions(options));
        this.engine = engine;
        event.addBean()
                .types(PadlockEngine.class, Object.class)
                .scope(Singleton.class)
                .createWith(c -> engine);
        // What the readiness check asks (where MicroProfile Health is present): the client Padlock locks with.
        event.addBean()
                .types(RedisReachability.class, Object.class)
                .scope(Singleton.class)
                .createWith(c -> reachability);
        // ... and what the server check found, which it shows beside it.
        event.addBean()
                .types(ServerFindings.class, Object.class)
                .scope(Singleton.class)
                .createWith(c -> findings);

        // Every problem at once, so a developer fixes them in one pass rather than one per deployment.
        for (String problem : problems.list()) {
            event.addDefinitionError(new DefinitionException(problem));
        }
        deployable = problems.isEmpty();
        if (deployable) {
            logStart(setup);
        }
    }

    private void logStart(PadlockSetup<Method> setup) {
        String where = setup.redis() != null ? setup.redis().describe() : "the application's own RedissonClient";
        LOG.log(
                System.Logger.Level.INFO,
                () -> "Padlock: " + setup.methods().size() + " @Locked method(s), "
                        + setup.namedLocks().size() + " named lock bean(s); Redis: " + where);
        if (applicationHasClient) {
            RedisConnectionSettings.ignoredWithApplicationClient(config)
                    .ifPresent(line -> LOG.log(System.Logger.Level.INFO, line));
        }
    }

    /** How many meters wait to be bound to a registry or tracer: for tests that count what is kept. */
    int metersAwaitingBinding() {
        return meters == null ? 0 : meters.awaitingBinding();
    }

    void ready(@Observes AfterDeploymentValidation event, BeanManager beans) {
        if (deployable) {
            // Padlock's client is checked each time it connects; the application's once here, on a thread of Padlock's.
            CompletableFuture<?> connection = managedClient != null
                    ? managedClient.connectInBackground()
                    : serverFindings.checkWhenResolved(applicationClient, loader);
            // Under padlock.redis.unsafe-server=fail only, this waits for the first check.
            serverFindings.startUpRefusal(connection).ifPresent(refusal -> {
                event.addDeploymentProblem(new DeploymentException(refusal));
                deployable = false;
                shutdown(null);
            });
        }
        if (engine != null && deployable) {
            engine.publishMetrics(applicationName());
            transactions.resolveNow();
        }
        if (meters != null) {
            // Bound also when there is nothing to count in (an OpenTelemetry API on the class path but nothing that
            // traces): unbound, the deferred events would keep every meter asked for after deployment, one per Locks
            // call planned per call, for as long as the application runs.
            LockEvents events = LockEvents.NONE;
            try {
                if (deployable) {
                    events = observers(beans);
                }
            } finally {
                meters.bind(events);
            }
        }
    }

    /** The application's meter registry and tracer, either or both; {@link LockEvents#NONE} when neither. */
    private LockEvents observers(BeanManager beans) {
        LockEvents micrometer = applicationHasMeterRegistry ? MicrometerRegistry.events(beans) : null;
        LockEvents tracing =
                openTelemetryVisible ? OpenTelemetryTracing.events(beans, applicationHasOpenTelemetry) : null;
        return CompositeLockEvents.of(
                micrometer != null ? micrometer : LockEvents.NONE, tracing != null ? tracing : LockEvents.NONE);
    }

    /**
     * The container's {@code TransactionSynchronizationRegistry}: a CDI bean where it has one, else what every Jakarta
     * EE server binds at {@link JtaTransactions#JNDI_NAME}; {@code null} where neither is (Weld SE).
     */
    private static Object transactionRegistry(BeanManager beans, ClassLoader loader) {
        try {
            Class<?> type = Class.forName(JtaTransactions.REGISTRY_TYPE, false, loader);
            Instance<?> bean = beans.createInstance().select(type);
            if (bean.isResolvable()) {
                return bean.get();
            }
        } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
            // not a bean here: try JNDI
        }
        try {
            return new InitialContext().lookup(JtaTransactions.JNDI_NAME);
        } catch (NamingException | RuntimeException | LinkageError e) {
            return null; // no naming context (Weld SE), or no transaction manager in it
        }
    }

    /** A name for the application's metrics: its module name where the container tells, else "padlock". */
    private static String applicationName() {
        try {
            Object name = new InitialContext().lookup("java:app/AppName");
            if (name instanceof String s && !s.isBlank()) {
                return s;
            }
        } catch (NamingException | RuntimeException | LinkageError e) {
            // Weld SE and other containers without JNDI
        }
        return "padlock";
    }

    void shutdown(@Observes BeforeShutdown event) {
        if (engine != null) {
            engine.close();
        }
        if (managedClient != null) {
            managedClient.close();
        }
    }
}
