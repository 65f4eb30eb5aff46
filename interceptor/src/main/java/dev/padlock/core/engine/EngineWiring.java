package dev.padlock.core.engine;

import dev.padlock.LockLost;
import dev.padlock.core.CallerContext;
import dev.padlock.core.CallerTransactions;
import dev.padlock.core.events.LockEvents;
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
 * @param transactions the callers' transactions, which calls ending inside one wait for before they release (e.g.
 *     {@code dev.padlock.core.transaction.JtaTransactions})
 * @param options the rules a test deployment may switch off; {@link EngineOptions#DEFAULTS} elsewhere
 */
public record EngineWiring(
        Supplier<RedissonClient> client,
        Consumer<LockLost> lockLost,
        CallerContext callers,
        LockEvents events,
        CallerTransactions transactions,
        EngineOptions options) {

    public EngineWiring {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(lockLost, "lockLost");
        Objects.requireNonNull(callers, "callers");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(transactions, "transactions");
        Objects.requireNonNull(options, "options");
    }

    /** A client and the observers of losses; no caller context, metrics or transactions, every rule on. */
    public static EngineWiring of(Supplier<RedissonClient> client, Consumer<LockLost> lockLost) {
        return new EngineWiring(
                client, lockLost, CallerContext.NONE, LockEvents.NONE, CallerTransactions.NONE, EngineOptions.DEFAULTS);
    }

    public EngineWiring withCallers(CallerContext callers) {
        return new EngineWiring(client, lockLost, callers, events, transactions, options);
    }

    public EngineWiring withEvents(LockEvents events) {
        return new EngineWiring(client, lockLost, callers, events, transactions, options);
    }

    public EngineWiring withTransactions(CallerTransactions transactions) {
        return new EngineWiring(client, lockLost, callers, events, transactions, options);
    }

    public EngineWiring withOptions(EngineOptions options) {
        return new EngineWiring(client, lockLost, callers, events, transactions, options);
    }
}
