package dev.padlock.core.engine;

import dev.padlock.LockLost;
import dev.padlock.core.CallerContext;
import dev.padlock.core.config.ReleasePolicy;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.operation.ReleaseTiming;
import dev.padlock.core.transaction.CallerTransactions;
import dev.padlock.core.transaction.ReleaseAfterTransaction;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.redisson.api.RedissonClient;

/**
 * What an integration hands an engine: the one place its collaborators are named, so that a new one (a release
 * policy, an observer) is a component here and a {@code with} call where it is known, not another constructor.
 *
 * @param client the client the locks are taken with; may still be connecting, asked for on first use
 * @param lockLost delivers {@link LockLost} events to the application's observers (a CDI {@code Event.fire}); called
 *     on the thread that found the loss or on Padlock's event thread
 * @param callers tells the operations when a caller must not block (Quarkus: a Vert.x event loop)
 * @param events who observes the locks (metrics, tracing); each method asks it for its meter once, at deployment
 * @param releaseTimings when calls of each release policy release, if not at return ({@link #withTransactions} wires
 *     {@link ReleasePolicy#AFTER_TRANSACTION}); a policy missing here releases at return
 * @param options the rules a test deployment may switch off; {@link EngineOptions#DEFAULTS} elsewhere
 */
public record EngineWiring(
        Supplier<RedissonClient> client,
        Consumer<LockLost> lockLost,
        CallerContext callers,
        LockEvents events,
        Map<ReleasePolicy, ReleaseTiming> releaseTimings,
        EngineOptions options) {

    public EngineWiring {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(lockLost, "lockLost");
        Objects.requireNonNull(callers, "callers");
        Objects.requireNonNull(events, "events");
        releaseTimings = Map.copyOf(releaseTimings);
        Objects.requireNonNull(options, "options");
    }

    /** A client and the observers of losses; no caller context, metrics or deferred release, every rule on. */
    public static EngineWiring of(Supplier<RedissonClient> client, Consumer<LockLost> lockLost) {
        return new EngineWiring(
                client, lockLost, CallerContext.NONE, LockEvents.NONE, Map.of(), EngineOptions.DEFAULTS);
    }

    public EngineWiring withCallers(CallerContext callers) {
        return new EngineWiring(client, lockLost, callers, events, releaseTimings, options);
    }

    public EngineWiring withEvents(LockEvents events) {
        return new EngineWiring(client, lockLost, callers, events, releaseTimings, options);
    }

    /**
     * Calls released under {@code policy} release when {@code timing} says; one timing per policy, the last given
     * wins.
     */
    public EngineWiring withReleaseTiming(ReleasePolicy policy, ReleaseTiming timing) {
        Map<ReleasePolicy, ReleaseTiming> timings = new EnumMap<>(ReleasePolicy.class);
        timings.putAll(releaseTimings);
        timings.put(policy, timing);
        return new EngineWiring(client, lockLost, callers, events, timings, options);
    }

    /** Calls that end inside one of {@code transactions} keep their locks until it completes (the default policy). */
    public EngineWiring withTransactions(CallerTransactions transactions) {
        return withReleaseTiming(ReleasePolicy.AFTER_TRANSACTION, new ReleaseAfterTransaction(transactions));
    }

    public EngineWiring withOptions(EngineOptions options) {
        return new EngineWiring(client, lockLost, callers, events, releaseTimings, options);
    }
}
