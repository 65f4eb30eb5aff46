package dev.padlock.testkit;

import dev.padlock.core.call.BoundCall;
import dev.padlock.core.key.KeyRenderer;
import java.util.List;
import java.util.Objects;

/**
 * Asserts, from inside the code under test, that it runs under a Padlock lock: put it in the locked method (or in
 * code it calls) and a test that calls the method through its bean fails when the lock is not there.
 *
 * <pre>{@code
 * @Locked(value = "stock", key = "{sku}")
 * public Reservation reserve(String sku, int qty) {
 *     PadlockAssert.assertLocked("stock", sku);   // fails if reserve() was not intercepted
 *     ...
 * }
 * }</pre>
 *
 * <p>A lock counts when a {@code @Locked} method or code run through {@code Locks} holds it for a call whose body
 * runs on the current thread, the calls it is nested in included: inside {@code @Locked("outer")} calling
 * {@code @Locked("inner")}, both {@code assertLocked("outer")} and {@code assertLocked("inner")} pass. A method
 * returning a {@code CompletionStage}, {@code Uni} or {@code Multi} holds its lock on the current thread only while
 * the method itself runs, not in stages that run later on other threads.
 *
 * <p>It reads a thread-local and nothing else: no CDI container, no Redis, no test framework needed. A failure is an
 * {@link AssertionError}, which every test framework reports as a failed assertion; it says which lock was
 * expected, what this thread holds, and why a lock is typically missing. It does not check the lease: a call whose
 * lock was lost still counts (that is {@code LockContext.checkHeld()}'s job).
 */
public final class PadlockAssert {

    private static final ThreadLocal<int[]> SUSPENDED = ThreadLocal.withInitial(() -> new int[1]);

    private PadlockAssert() {}

    /**
     * Passes when the current code runs under any Padlock lock.
     *
     * @throws AssertionError when no Padlock call holds a lock on this thread
     */
    public static void assertLocked() {
        List<BoundCall> calls = BoundCall.onThisThread();
        if (calls.isEmpty() && !suspended()) {
            throw new AssertionError(expected("any Padlock lock") + notHeld());
        }
    }

    /**
     * Passes when the current code runs under the lock {@code name}, with or without a key, e.g.
     * {@code assertLocked("stock")} inside {@code @Locked(value = "stock", key = "{sku}")}.
     *
     * @param name the lock name, as in {@code @Locked(value = ...)} or {@code Locks.on(name, ...)}
     * @throws AssertionError when no call on this thread holds a lock of that name
     */
    public static void assertLocked(String name) {
        Objects.requireNonNull(name, "name");
        List<BoundCall> calls = BoundCall.onThisThread();
        for (BoundCall call : calls) {
            if (call.lockName().equals(name)) {
                return;
            }
        }
        if (!suspended()) {
            throw new AssertionError(expected("Padlock lock \"" + name + "\"") + held(calls, false));
        }
    }

    /**
     * Passes when the current code runs under the lock {@code name} for {@code key}: the Redis key Padlock renders
     * for that value ({@code String.valueOf(key)}, escaped, after {@code padlock.key-prefix} and the name), e.g.
     * {@code assertLocked("stock", "A-42")} inside {@code @Locked(value = "stock", key = "{sku}")} called with
     * {@code "A-42"}, or inside {@code locks.on("stock", "A-42").run(...)}. A call with several keys passes for each of
     * them.
     *
     * @param name the lock name
     * @param key the key value, as the method's argument or the value given to {@code Locks.on}; not null
     * @throws AssertionError when no call on this thread holds that key
     */
    public static void assertLocked(String name, Object key) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(key, "key (Padlock never locks a null key)");
        List<BoundCall> calls = BoundCall.onThisThread();
        for (BoundCall call : calls) {
            if (call.lockName().equals(name) && call.keys().contains(KeyRenderer.redisKey(call.redisBase(), key))) {
                return;
            }
        }
        if (!suspended()) {
            throw new AssertionError(expected("Padlock lock \"" + name + "\" for key " + quoted(key) + " (Redis key "
                            + KeyRenderer.redisKey("padlock:" + name, key) + " with the default key prefix)")
                    + held(calls, true));
        }
    }

    /**
     * Makes every assertion of this class pass on the current thread until the returned suspension is closed: for a
     * unit test that calls a method containing {@code assertLocked} directly, without CDI and without Padlock.
     *
     * <pre>{@code
     * try (PadlockAssert.Suspension ignored = PadlockAssert.suspendOnThisThread()) {
     *     new Inventory(store).reserve("A-42", 1);    // no container: no lock, on purpose
     * }
     * }</pre>
     *
     * Suspensions nest; each one ends with its own {@code close()}. Other threads are not affected.
     */
    public static Suspension suspendOnThisThread() {
        int[] depth = SUSPENDED.get();
        depth[0]++;
        return new Suspension(depth);
    }

    /** Ends a {@link #suspendOnThisThread()}; closing it again does nothing. */
    public static final class Suspension implements AutoCloseable {

        private final int[] depth;
        private final Thread thread = Thread.currentThread();
        private boolean closed;

        private Suspension(int[] depth) {
            this.depth = depth;
        }

        @Override
        public void close() {
            if (Thread.currentThread() != thread) {
                throw new IllegalStateException(
                        "PadlockAssert.Suspension: close it on the thread that suspended, " + thread.getName()
                                + ", not on " + Thread.currentThread().getName());
            }
            if (!closed) {
                closed = true;
                depth[0]--;
                if (depth[0] == 0) {
                    SUSPENDED.remove();
                }
            }
        }
    }

    private static boolean suspended() {
        int[] depth = SUSPENDED.get();
        if (depth[0] > 0) {
            return true;
        }
        SUSPENDED.remove();
        return false;
    }

    private static String expected(String lock) {
        return "Expected the current code to run under " + lock + ", but ";
    }

    private static String held(List<BoundCall> calls, boolean withKeyHint) {
        if (calls.isEmpty()) {
            return notHeld();
        }
        StringBuilder text = new StringBuilder("on thread ")
                .append(Thread.currentThread().getName())
                .append(" Padlock holds only: ");
        for (int i = 0; i < calls.size(); i++) {
            BoundCall call = calls.get(i);
            if (i > 0) {
                text.append("; enclosing it, ");
            }
            text.append('"')
                    .append(call.lockName())
                    .append("\" ")
                    .append(call.keys())
                    .append(" for ")
                    .append(call.method());
        }
        text.append(". Check the lock name");
        if (withKeyHint) {
            text.append(" and the key: Padlock renders a key value with String.valueOf and escapes '{', '}' and '%'"
                    + " (a key template such as \"order-{id}\" renders \"order-42\", so assert that)");
        }
        return text.append('.').toString();
    }

    private static String notHeld() {
        return "no Padlock lock is held on thread " + Thread.currentThread().getName() + ". Typical causes: the"
                + " method was not called through its CDI bean: a call on this (this.method(...) from another method of"
                + " the same bean) bypasses the interceptor on Weld, and so on Payara and WildFly, as does a call on an"
                + " instance made with new; call it through an injected reference. Or the application runs on Weld SE"
                + " with disableDiscovery() and did not call addExtension(new PadlockExtension()), so @Locked does"
                + " nothing. Or the assertion runs on another thread than the locked call (an executor, a stage that"
                + " completes later).";
    }

    private static String quoted(Object key) {
        return key instanceof CharSequence ? "\"" + key + "\"" : String.valueOf(key);
    }
}
