package dev.padlock.core.call;

import java.util.ArrayList;
import java.util.List;

/**
 * A Padlock call whose body runs on the current thread: a {@code @Locked} method or code run through {@code Locks},
 * with the locks it holds. For tools that check from inside business code that it runs under a lock (the test kit's
 * {@code PadlockAssert}); business code itself reads {@link dev.padlock.LockContext}.
 *
 * @param lockName the lock name, e.g. {@code stock}
 * @param redisBase the Redis key of the lock without its key part: {@code padlock.key-prefix} plus the name, e.g.
 *     {@code padlock:stock}; a key value {@code v} of the call has the Redis key {@code
 *     dev.padlock.core.key.KeyRenderer.redisKey(redisBase, v)}
 * @param keys the Redis keys of the call, sorted, e.g. {@code [padlock:stock:A-42]}
 * @param method the method as messages name it, or {@code Locks.on("stock", key)} for code run through {@code Locks}
 */
public record BoundCall(String lockName, String redisBase, List<String> keys, String method) {

    /**
     * The calls bound to this thread, innermost first: the call whose body runs now, then the call it is nested in,
     * and so on outwards. Empty when no Padlock call runs on this thread. Reads a thread-local only: works without a
     * CDI container, and costs nothing to the calls themselves.
     *
     * <p>A call is bound while its method body (or the code given to {@code Locks}) runs on the calling thread; a
     * {@code CompletionStage} or reactive body only while the method itself runs, not in stages that complete later.
     */
    public static List<BoundCall> onThisThread() {
        LockedCall call = ThreadCalls.current();
        if (call == null) {
            return List.of();
        }
        List<BoundCall> calls = new ArrayList<>(2);
        for (; call != null; call = call.enclosing()) {
            calls.add(new BoundCall(call.facts.lockName(), call.facts.redisBase(), call.keys(), call.facts.method()));
        }
        return List.copyOf(calls);
    }
}
