package dev.padlock.cdi;

import dev.padlock.Locked;
import dev.padlock.core.engine.CurrentLockContext;
import jakarta.enterprise.inject.build.compatible.spi.BeanInfo;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.InjectionPointInfo;
import jakarta.enterprise.inject.build.compatible.spi.Registration;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.lang.model.AnnotationInfo;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.enterprise.lang.model.declarations.MethodInfo;
import jakarta.enterprise.lang.model.types.Type;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Stops a container that runs Padlock's code without {@link PadlockExtension}: there no interceptor is bound to
 * {@code @Locked}, and its methods would run without any lock.
 *
 * <p>It happens on Weld SE: {@code new Weld().disableDiscovery()} loads no service-provider portable extension, but
 * it does load build compatible extensions, this one included. When the application has a {@code @Locked} bean, or
 * injects a {@code dev.padlock} type, and the portable extension did not run, the start fails before the container
 * validates its beans, with a message naming the fix. Where the portable extension runs (Payara, WildFly, Weld SE
 * with discovery or with the extension added) it finds nothing to report. Public only because the
 * {@link java.util.ServiceLoader} needs it so.
 */
public class MissingExtensionCheck implements BuildCompatibleExtension {

    private static final System.Logger LOG = System.getLogger(MissingExtensionCheck.class.getName());

    /** How many uses the message lists before it says "and N more". */
    private static final int LISTED = 5;

    private static final String PUBLIC_PACKAGE = Locked.class.getPackageName();

    /** Sorted, so that the message is the same on every start; concurrent, in case beans are processed in parallel. */
    private final Set<String> uses = new ConcurrentSkipListSet<>();

    private volatile boolean extensionRan;

    public MissingExtensionCheck() {}

    /**
     * {@link PadlockExtension} adds {@link CurrentLockContext} before type discovery (so does Padlock's Quarkus build
     * step, should both jars meet); an application does not have it on its own, since it lives in an internal package
     * of a jar without {@code beans.xml}. Its bean is how this check knows that Padlock was set up.
     */
    @Registration(types = CurrentLockContext.class)
    public void padlockWasSetUp(BeanInfo bean) {
        extensionRan = true;
        uses.clear();
    }

    @Registration(types = Object.class)
    public void collectUses(BeanInfo bean) {
        if (extensionRan) {
            return;
        }
        try {
            // An interceptor's @Locked is its binding (LockedInterceptor enabled by hand), not a use.
            if (bean.isClassBean() && !bean.isInterceptor()) {
                collectLocked(bean);
            }
            for (InjectionPointInfo point : bean.injectionPoints()) {
                String padlockType = padlockType(point.type());
                if (padlockType != null) {
                    uses.add(padlockType + " injected into "
                            + bean.declaringClass().name());
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // Application servers show this check their own beans too, some naming types that cannot be resolved
            // from here. A bean this check cannot read is skipped: the check must never fail a deployment that works.
            LOG.log(System.Logger.Level.DEBUG, () -> "Padlock: skipped a bean it could not read: " + bean, e);
        }
    }

    private void collectLocked(BeanInfo bean) {
        ClassInfo type = bean.declaringClass();
        // @Inherited: the class's annotations include one on a superclass.
        boolean onClass = type.hasAnnotation(Locked.class)
                || bean.stereotypes().stream()
                        .anyMatch(s -> s.interceptorBindings().stream().anyMatch(MissingExtensionCheck::isLocked));
        if (onClass) {
            uses.add("@Locked on class " + type.name());
            return;
        }
        for (MethodInfo method : type.methods()) {
            if (method.hasAnnotation(Locked.class)) {
                uses.add("@Locked on " + type.name() + "#" + method.name());
            }
        }
    }

    private static boolean isLocked(AnnotationInfo binding) {
        return binding.name().equals(Locked.class.getName());
    }

    /** The simple name of a {@code dev.padlock} type the injected type is or has as an argument, else null. */
    private static String padlockType(Type type) {
        if (type.isClass()) {
            ClassInfo declaration = type.asClass().declaration();
            return PUBLIC_PACKAGE.equals(declaration.packageInfo().name()) ? declaration.simpleName() : null;
        }
        if (type.isParameterizedType()) {
            // Instance<LockContext>, Provider<Locks>, Event<LockLost>...
            for (Type argument : type.asParameterizedType().typeArguments()) {
                String found = padlockType(argument);
                if (found != null) {
                    return found;
                }
            }
            return padlockType(type.asParameterizedType().genericClass());
        }
        return null;
    }

    /**
     * Reported here, after every bean was seen and before the container validates them: an application without the
     * extension whose validation fails first (an unsatisfied {@code RLock} or {@code LockContext}) would otherwise
     * hear of the symptom instead of the cause. Thrown rather than passed to {@code Messages}, which Weld reports
     * only after validation.
     */
    @Synthesis
    public void reportMissingExtension() {
        if (extensionRan || uses.isEmpty()) {
            return;
        }
        throw new DeploymentException(message());
    }

    private String message() {
        StringBuilder listed = new StringBuilder();
        Iterator<String> each = uses.iterator();
        for (int i = 0; i < LISTED && each.hasNext(); i++) {
            listed.append(i == 0 ? "" : ", ").append(each.next());
        }
        if (uses.size() > LISTED) {
            listed.append(" and ").append(uses.size() - LISTED).append(" more");
        }
        return "Padlock's portable extension " + PadlockExtension.class.getName()
                + " did not run in this container, yet the application uses Padlock (" + listed
                + "): without the extension no interceptor is bound to @Locked, so its methods would run without any"
                + " lock, and Padlock's beans (LockContext, RedissonClient, @Named locks) do not exist. Weld SE loads"
                + " service-provider extensions only with discovery on: with new Weld().disableDiscovery(), add it"
                + " yourself with .addExtension(new PadlockExtension()) (weld-junit5:"
                + " WeldInitiator.createWeld().addExtension(new PadlockExtension()) or"
                + " @AddExtensions(PadlockExtension.class)).";
    }
}
