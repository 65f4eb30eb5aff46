package dev.padlock.core;

import dev.padlock.core.client.RedisClientSource;

/**
 * What the operations of one engine (one application) share: its client, one renewal timer for all its held locks,
 * one releaser, one loss reporter, its callers' context, one local queue per key, and who observes its locks.
 */
record EngineServices(
        RedisClientSource client,
        LeaseRenewal renewal,
        Releaser releaser,
        LockLossReporter reporter,
        CallerContext callers,
        LocalTurns turns,
        LockEvents events) {}
