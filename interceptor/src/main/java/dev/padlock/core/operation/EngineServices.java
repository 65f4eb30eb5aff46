package dev.padlock.core.operation;

import dev.padlock.core.CallerContext;
import dev.padlock.core.CallerTransactions;
import dev.padlock.core.call.HandOff;
import dev.padlock.core.client.RedisClientSource;
import dev.padlock.core.events.LockEvents;
import dev.padlock.core.events.LockLossReporter;
import dev.padlock.core.lease.LeaseRenewal;
import dev.padlock.core.turns.LocalTurns;

/**
 * What the operations of one engine (one application) share: its client, one renewal timer for all its held locks,
 * one releaser, one loss reporter, its callers' context, one local queue per key, who observes its locks, its
 * callers' transactions, and what those transactions keep and wait for.
 */
public record EngineServices(
        RedisClientSource client,
        LeaseRenewal renewal,
        Releaser releaser,
        LockLossReporter reporter,
        CallerContext callers,
        LocalTurns<HandOff.Hold> turns,
        LockEvents events,
        CallerTransactions transactions,
        TransactionWaits transactionWaits) {}
