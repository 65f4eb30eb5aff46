package dev.padlock.fencing;

/**
 * A value {@link RedisFence} stored, with the token of the write that stored it.
 *
 * @param value the value, as written
 * @param token the fencing token that wrote it: the highest the key has accepted
 */
public record FencedValue(String value, long token) {}
