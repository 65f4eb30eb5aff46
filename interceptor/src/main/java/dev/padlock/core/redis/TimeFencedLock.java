package dev.padlock.core.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.RedissonFencedLock;
import org.redisson.RedissonObject;
import org.redisson.api.RFuture;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.LongCodec;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.command.CommandAsyncExecutor;
import org.redisson.misc.CompletableFutureWrapper;

/**
 * Redisson's fenced lock, with tokens that never go backwards: each acquisition's token is the larger of the key's last
 * token plus one and the server's time in milliseconds times {@value #TOKENS_PER_MILLI}, minted in the script that
 * takes the lock. Redisson's own token is a per-key counter ({@code INCR}), which a failover to a replica that missed
 * an increment hands out twice, and which a restart without persistence starts again at 1, after which a store that
 * refuses older tokens refuses every new holder. A token of the server's clock is larger than every token minted
 * before, on any master, as long as that clock has not gone back further than the time between the two acquisitions;
 * on a stable counter it still grows by at least one per acquisition, also within one millisecond.
 *
 * <p>The range: the clock part is about 2^50.7 today and reaches Lua's exact integers' limit, 2^53, in the year 2248. A
 * key gets more than {@value #TOKENS_PER_MILLI} tokens per millisecond only from a server faster than any; its tokens
 * would then run ahead of the clock and still grow.
 *
 * <p>The counter is Redisson's key ({@code redisson_lock_token:{<key>}}, without expiry), so Redisson's own script,
 * which the plain {@code lock}/{@code tryLock} forms of this object still run, increments the last minted token and
 * stays in order with it. Everything but acquiring with a token is Redisson's: the lock's hash, its release, its
 * channel, its watchdog.
 */
public final class TimeFencedLock extends RedissonFencedLock {

    /** 2^10: tokens a key may get per millisecond of the server's clock before they run ahead of it. */
    static final long TOKENS_PER_MILLI = 1024;

    /** The script's answers, first element. */
    private static final long TAKEN = 1;

    private static final long NOT_FREE = 0;

    /**
     * KEYS[1] the lock's hash, KEYS[2] the token counter; ARGV[1] the lease in ms, ARGV[2] the owner's field, ARGV[3]
     * {@code take} to take the lock (Redisson's rule: free, or held by this owner) or {@code held} to mint for a hold
     * the owner just took. Answers {1, token}, or {0, the lock's remaining ms} when another owner holds it, or {2, 0}
     * when the owner no longer holds it. {@code TIME} before a write is allowed since Redis replicates a script's
     * effects (5.0 by default, 7.0 always); the token is written back in full digits ({@code %.0f}), never in Lua's
     * exponent form.
     */
    private static final String MINT = "if ARGV[3] == 'take' then "
            + "if redis.call('exists', KEYS[1]) == 1 and redis.call('hexists', KEYS[1], ARGV[2]) == 0 then "
            + "return {0, redis.call('pttl', KEYS[1])}; "
            + "end; "
            + "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
            + "redis.call('pexpire', KEYS[1], ARGV[1]); "
            + "elseif redis.call('hexists', KEYS[1], ARGV[2]) == 0 then "
            + "return {2, 0}; "
            + "end; "
            + "local t = redis.call('time'); "
            + "local token = (tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)) * " + TOKENS_PER_MILLI + "; "
            + "local last = tonumber(redis.call('get', KEYS[2])); "
            + "if last ~= nil and last >= token then token = last + 1; end; "
            + "redis.call('set', KEYS[2], string.format('%.0f', token)); "
            + "return {1, token};";

    private final String tokenKey;

    private TimeFencedLock(CommandAsyncExecutor commands, String name) {
        super(commands, name);
        this.tokenKey = RedissonObject.prefixName("redisson_lock_token", name);
    }

    /**
     * The fenced lock of {@code key}: this class for a Redisson client; Redisson's own for any other implementation of
     * {@link RedissonClient} (a test double), whose tokens are the plain counter.
     */
    public static RLock of(RedissonClient client, String key) {
        return client instanceof Redisson redisson
                ? new TimeFencedLock(redisson.getCommandExecutor(), key)
                : client.getFencedLock(key);
    }

    /**
     * Takes the lock for {@code owner} within {@code waitTime} (negative: for as long as it takes) under {@code
     * leaseTime} (not positive: Redisson's watchdog), and mints its token. A free lock costs one script. A lock another
     * owner holds is waited for the way Redisson waits (its release channel), taken by Redisson's script, and then given
     * its token by a second script that checks the owner still holds it.
     *
     * @return the token, or {@code null} when the lock was not free in time
     */
    @Override
    public RFuture<Long> tryLockAndGetTokenAsync(long waitTime, long leaseTime, TimeUnit unit, long owner) {
        long started = System.nanoTime();
        TimeUnit units = unit == null ? TimeUnit.MILLISECONDS : unit;
        long lease = leaseTime > 0 ? units.toMillis(leaseTime) : internalLockLeaseTime;
        CompletableFuture<Long> token = new CompletableFuture<>();
        mint(lease, owner, "take").whenComplete((answer, failure) -> {
            if (failure != null) {
                token.completeExceptionally(failure);
            } else if (answer.get(0) == TAKEN) {
                if (leaseTime > 0) {
                    internalLockLeaseTime = lease;
                } else {
                    scheduleExpirationRenewal(owner);
                }
                handOver(token, answer.get(1), owner);
            } else if (waitTime == 0) {
                token.complete(null);
            } else {
                long left = waitTime < 0
                        ? Long.MAX_VALUE
                        : units.toMillis(waitTime) - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                waitThenMint(left, leaseTime, lease, owner, token);
            }
        });
        return new CompletableFutureWrapper<>(token);
    }

    /**
     * Waits up to {@code waitMillis} ({@link Long#MAX_VALUE}: without end) for the lock with Redisson's loop, then
     * mints.
     */
    private void waitThenMint(long waitMillis, long leaseTime, long lease, long owner, CompletableFuture<Long> token) {
        if (waitMillis <= 0) {
            token.complete(null);
            return;
        }
        // Redisson reads the wait and the lease in one unit: both in ms here (-1 keeps the watchdog)
        long leaseArg = leaseTime > 0 ? lease : -1;
        CompletionStage<Boolean> taken = waitMillis == Long.MAX_VALUE
                ? lockAsync(leaseArg, TimeUnit.MILLISECONDS, owner).thenApply(done -> true)
                : tryLockAsync(waitMillis, leaseArg, TimeUnit.MILLISECONDS, owner);
        taken.thenCompose(held -> held ? mint(lease, owner, "held") : CompletableFuture.completedFuture(null))
                .whenComplete((answer, failure) -> {
                    if (answer != null && answer.get(0) == TAKEN) {
                        handOver(token, answer.get(1), owner);
                        return;
                    }
                    if (answer != null || failure != null) {
                        // Taken and then without a token (lost at once, or the script failed): not the caller's.
                        unlockAsync(owner);
                    }
                    if (failure != null) {
                        token.completeExceptionally(failure);
                    } else {
                        token.complete(null);
                    }
                });
    }

    /** Gives the caller its token; a caller that cancelled meanwhile gets nothing, and the lock is given back. */
    private void handOver(CompletableFuture<Long> token, long value, long owner) {
        if (!token.complete(value)) {
            unlockAsync(owner);
        }
    }

    /** One run of {@link #MINT}, confirmed by the replicas as Redisson confirms its own lock scripts. */
    private CompletionStage<List<Long>> mint(long lease, long owner, String mode) {
        return getServiceManager()
                .execute(() -> handleNoSync(
                        owner,
                        evalWriteSyncedNoRetryAsync(
                                getRawName(),
                                LongCodec.INSTANCE,
                                RedisCommands.EVAL_LONG_LIST,
                                MINT,
                                List.of(getRawName(), tokenKey),
                                lease,
                                getLockName(owner),
                                mode)));
    }
}
