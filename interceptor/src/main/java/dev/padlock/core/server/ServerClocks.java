package dev.padlock.core.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Each master's wall clock against the engine's monotonic clock, from the server time each renewal's answer carries:
 * Redis expires keys by its wall clock, so a clock stepped forward ends the leases on that server early, and one that
 * stands still or goes back makes keys outlive them. The sums take the clocks as arguments, so that they can be
 * checked without Redis or sleeping ({@code ServerClockReadingTest}).
 */
final class ServerClocks {

    private static final System.Logger LOG = System.getLogger(ServerClocks.class.getName());

    /** The key of the one server while no client is watched, so no master's address is known. */
    static final Object ANY_SERVER = new Object();

    /**
     * Where the server's wall clock stood against the engine's monotonic clock when a script ran, in nanoseconds:
     * between {@code lowest} (the answer's arrival) and {@code highest} (the request's sending).
     */
    private record Reading(long lowest, long highest, long sent, long received) {}

    /** Each master's last reading, by address. */
    private final Map<Object, Reading> last = new ConcurrentHashMap<>();
    /** The masters whose clock was said to stand still or go back: said once. */
    private final Map<Object, Boolean> saidStill = new ConcurrentHashMap<>();

    /**
     * An answer of the master {@code server} (named {@code where} in log lines), sent at {@code sentNanos} and received
     * at {@code receivedNanos}, with its wall clock at {@code serverMillis}. Compared with the previous answer of the
     * same master, the server's clock may have drifted by what clocks drift: 1 % of the time between, plus 21 ms, the
     * same allowance as a lock's deadline. Further ahead, it jumped: said, and returned. Further behind, it stood still
     * or was set back: said once per master. Answers that overlap in time are not compared.
     *
     * @return how far the clock jumped forward (at least), in nanoseconds, or 0
     */
    long read(Object server, String where, long sentNanos, long receivedNanos, long serverMillis) {
        long wall = TimeUnit.MILLISECONDS.toNanos(serverMillis);
        Reading reading = new Reading(wall - receivedNanos, wall - sentNanos, sentNanos, receivedNanos);
        Reading[] previous = new Reading[1];
        last.compute(server, (address, before) -> {
            previous[0] = before;
            return before == null || sentNanos - before.received() >= 0 ? reading : before;
        });
        Reading before = previous[0];
        if (before == null || sentNanos - before.received() < 0) {
            return 0;
        }
        long allowance = (receivedNanos - before.sent()) / 100 + 21_000_000;
        long ahead = reading.lowest() - before.highest();
        if (ahead > allowance) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> where + " stepped its clock forward by at least " + TimeUnit.NANOSECONDS.toMillis(ahead)
                            + " ms between two renewals: keys expire by that clock, so the locks held there lose that"
                            + " much of their lease; Padlock reports those whose lease is over as lost. Keep the"
                            + " server's clock from being stepped (let NTP slew it).");
            return ahead;
        }
        long behind = before.lowest() - reading.highest();
        if (behind > allowance && saidStill.putIfAbsent(server, Boolean.TRUE) == null) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> where + "'s clock stood still or was set back by at least "
                            + TimeUnit.NANOSECONDS.toMillis(behind) + " ms between two renewals: keys expire by that"
                            + " clock, so a lock outlives its lease there, and one whose holder died stays taken until"
                            + " the clock catches up. Check the server's time source. (Said once per server.)");
        }
        return 0;
    }
}
