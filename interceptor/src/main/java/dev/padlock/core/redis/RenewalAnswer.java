package dev.padlock.core.redis;

/**
 * What a renewal script answered: whether the owner still held the lock (and so had its lease extended), and the
 * server's wall clock when the script ran, in milliseconds since the epoch.
 */
public record RenewalAnswer(boolean held, long serverMillis) {

    /** Decodes a script's integer answer: the server's time doubled, plus 1 when held. */
    static RenewalAnswer of(Long answer) {
        long value = answer == null ? 0 : answer;
        return new RenewalAnswer((value & 1) == 1, value >> 1);
    }
}
