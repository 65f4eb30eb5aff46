package dev.padlock.core.engine;

import dev.padlock.LockException;
import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.events.LiveLocks;
import dev.padlock.core.events.LockLossReporter;
import dev.padlock.core.events.PadlockMetricsMBean;
import dev.padlock.core.lease.LeaseRenewal;
import dev.padlock.core.operation.EngineServices;
import dev.padlock.core.operation.LockOperation;
import dev.padlock.core.operation.Operations;
import dev.padlock.core.operation.Releaser;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.plan.NamedLocks;
import dev.padlock.core.programmatic.Planner;
import dev.padlock.core.programmatic.ProgrammaticLocks;
import dev.padlock.core.setup.PadlockSetup;
import dev.padlock.core.shape.ReflectedShapes;
import dev.padlock.core.turns.LocalTurns;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operations of every {@code @Locked} method of one application, computed at deployment. The
 * interceptor only looks one up and runs it.
 */
public final class PadlockEngine {

    private final Map<Method, LockOperation> operations = new ConcurrentHashMap<>();
    private final LockedMethodValidator validator;
    /** One renewal for the application's watchdog-mode locks: one tick renews them all. */
    private final LeaseRenewal renewal;

    private final LockLossReporter losses;
    private final LocalTurns<HandOff.Hold> turns = new LocalTurns<>();
    private final EngineServices services;
    /** The named lock beans of the deployment, for the one-type-per-name rule of locks taken in code. */
    private volatile List<NamedLocks.NamedLock> namedLocks = List.of();

    private final ProgrammaticLocks programmaticLocks = new ProgrammaticLocks(new EnginePlanner());

    /** An engine with no method registered yet ({@link #register}); integrations use {@link #start}. */
    public PadlockEngine(LockedMethodValidator validator, EngineWiring wiring) {
        this.validator = validator;
        // Padlock's own client (ManagedClient) may still be connecting; an application's is there once looked up.
        RedisClientSource source = RedisClientSource.of(wiring.client());
        EngineOptions options = wiring.options();
        this.renewal = new LeaseRenewal(source, options.reportsLossAtDeadline(), options.ticker());
        this.losses = new LockLossReporter(wiring.lockLost());
        this.services = new EngineServices(
                source,
                renewal,
                new Releaser(renewal, source, options.givesWay(), options.commands(), options.ticker()),
                losses,
                wiring.callers(),
                turns,
                wiring.events(),
                wiring.releaseTimings(),
                options.commands(),
                options.ticker());
    }

    /**
     * The engine of a deployment the set-up found valid, with every planned method registered; each method asks the
     * wiring's {@link EngineWiring#events} for its meter here, once.
     */
    public static PadlockEngine start(PadlockSetup<Method> setup, EngineWiring wiring) {
        PadlockEngine engine = new PadlockEngine(setup.validator(), wiring);
        setup.methods().forEach(planned -> engine.register(planned.method(), planned.plan()));
        engine.namedLocks = setup.namedLocks();
        return engine;
    }

    /** Publishes the engine's counters over JMX as {@code dev.padlock:type=Padlock,name=<application>}. */
    public void publishMetrics(String application) {
        losses.register(application);
    }

    /** The counters ({@link PadlockMetricsMBean}), also readable without JMX. */
    public PadlockMetricsMBean metrics() {
        return losses;
    }

    /**
     * What the application's locks are doing now: held locks, local queues, recent losses. Taken when asked (a live
     * view polls it); it names rendered keys, so it is for the developer's eyes, not for metrics or logs.
     */
    public LiveLocks liveLocks() {
        return new LiveLocks(renewal.held(), turns.queues(), losses.recent());
    }

    /**
     * The application is stopping: waits (a few seconds at most) for the releases under way to be answered, so that
     * no key a call released, or an acquisition in doubt undid, is left held because the client shut down first;
     * then stops renewing and watching locks (a client the application provided may outlive it; its locks still held
     * then lapse with their lease) and withdraws what {@link #publishMetrics} published.
     */
    public void close() {
        services.releaser().awaitReleases();
        renewal.close();
        losses.unregister();
        losses.close();
    }

    /** Registers the operation of a method validated at deployment. */
    public void register(Method method, LockPlan plan) {
        operations.put(method, Operations.of(plan, method.getParameterTypes(), services));
    }

    /** Runs code under the application's locks: the {@link dev.padlock.Locks} every bean of it injects. */
    public Locks locks() {
        return programmaticLocks;
    }

    /** What the engine's {@link ProgrammaticLocks} may ask of it. */
    private final class EnginePlanner implements Planner {

        @Override
        public LockedMethodValidator validator() {
            return validator;
        }

        @Override
        public List<LockPlan> plans() {
            List<LockPlan> plans = new ArrayList<>();
            operations.values().forEach(op -> plans.add(op.plan()));
            return plans;
        }

        @Override
        public List<NamedLocks.NamedLock> namedLocks() {
            return namedLocks;
        }

        @Override
        public LockOperation operation(LockPlan plan, Class<?>[] parameterTypes) {
            return Operations.of(plan, parameterTypes, services);
        }
    }

    LockOperation operation(InvocationContext ctx) {
        LockOperation op = operations.get(ctx.getMethod());
        return op != null ? op : planLate(ctx);
    }

    /**
     * A method deployment did not report (a container that does not announce every type): plan it now from
     * the binding the container hands over, with the same rules, once.
     */
    private LockOperation planLate(InvocationContext ctx) {
        Method method = ctx.getMethod();
        return operations.computeIfAbsent(method, m -> {
            LockedMethodValidator.Result result =
                    validator.validate(ReflectedShapes.of(m), LockedSpec.of(binding(ctx)));
            if (!result.isValid()) {
                throw new LockException(String.join("\n", result.problems()));
            }
            return Operations.of(result.plan(), m.getParameterTypes(), services);
        });
    }

    /**
     * Context-data keys under which Weld and ArC hand over the resolved bindings, for containers older than
     * Interceptors 2.2.
     */
    private static final String[] BINDING_KEYS = {
        "org.jboss.weld.interceptor.bindings", "io.quarkus.arc.interceptorBindings"
    };

    /**
     * The binding the container resolved (class or method level, stereotypes included), else what
     * reflection sees on the method and then its class.
     */
    static Locked binding(InvocationContext ctx) {
        try {
            Locked bound = ctx.getInterceptorBinding(Locked.class);
            if (bound != null) {
                return bound;
            }
        } catch (UnsupportedOperationException | NoSuchMethodError e) {
            // a container implementing Interceptors 2.1 or older: try the next sources
        }
        for (String key : BINDING_KEYS) {
            if (ctx.getContextData().get(key) instanceof Iterable<?> bindings) {
                for (Object binding : bindings) {
                    if (binding instanceof Locked locked) {
                        return locked;
                    }
                }
            }
        }
        Method method = ctx.getMethod();
        Locked onMethod = method.getAnnotation(Locked.class);
        if (onMethod != null) {
            return onMethod;
        }
        Object target = ctx.getTarget();
        Locked onType = (target != null ? target.getClass() : method.getDeclaringClass()).getAnnotation(Locked.class);
        if (onType == null) {
            throw new LockException(
                    "No @Locked binding found for " + method + "; this is a Padlock bug, please report it");
        }
        return onType;
    }
}
