package dev.padlock.contract;

import dev.padlock.Locked;
import dev.padlock.OnFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;

/**
 * Misuse of {@code @Locked} and of named lock beans refuses the application before it runs, every problem at once,
 * each naming the class, method or key and the fix. Nothing here needs Redis: the refusal comes before any
 * connection.
 */
public final class InvalidLockedMethods {

    private InvalidLockedMethods() {}

    @ApplicationScoped
    public static class Broken {
        @Locked(key = "{skus}")
        public void unknownParameter(String sku) {}

        @Locked(waitTime = "soon")
        public void badWait() {}

        @Locked(onFailure = OnFailure.SKIP)
        public int skipPrimitive() {
            return 1;
        }

        @Locked("configured")
        public void badConfig() {}

        @Locked(value = "import", leaseTime = "10s", holdAtLeast = "30s")
        public void holdsLongerThanItsLease() {}
    }

    @ApplicationScoped
    public static class BadInjections {
        @Inject
        @Named("shared")
        RLock asLock;

        @Inject
        @Named("shared")
        RReadWriteLock asReadWrite;
    }

    private static final String BROKEN = Broken.class.getName();
    private static final String BAD_INJECTIONS = BadInjections.class.getName();

    /** Members that cannot work, and a per-lock key that is not a duration. */
    public static final Refusal MEMBERS = Refusal.of(
            ApplicationUnderTest.of(Broken.class).with("padlock.locks.\"configured\".lease-time", "a while"),
            5,
            "Invalid @Locked.key on " + BROKEN + "#unknownParameter(String): {skus} names no parameter of the method."
                    + " Use one of sku, or a position such as {0}.",
            "Invalid @Locked.waitTime on " + BROKEN + "#badWait(): 'soon' is not a duration",
            "Invalid @Locked.onFailure on " + BROKEN + "#skipPrimitive(): SKIP has nothing to return",
            "Invalid padlock.locks.\"configured\".lease-time (lock of " + BROKEN + "#badConfig())",
            "Invalid @Locked.holdAtLeast on " + BROKEN + "#holdsLongerThanItsLease(): 30s is longer than the lease"
                    + " (10s), after which Redis frees the key anyway. Use 10s or less, or a leaseTime at least as"
                    + " long.");

    /** Two injection points of one name that ask for different kinds of lock. */
    public static final Refusal NAMED_LOCKS = Refusal.of(
            ApplicationUnderTest.of(BadInjections.class),
            1,
            "Invalid @Named(\"shared\") lock injection points: RLock at field " + BAD_INJECTIONS + ".asLock and"
                    + " RReadWriteLock at field " + BAD_INJECTIONS + ".asReadWrite would share the Redis key"
                    + " padlock:shared");
}
