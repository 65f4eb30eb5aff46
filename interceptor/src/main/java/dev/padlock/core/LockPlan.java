package dev.padlock.core;

import java.util.List;

/**
 * Everything deployment found out about one {@code @Locked} method, before it is bound to a Redis client.
 * Holds no reflection objects, so the Quarkus build step can compute it from Jandex.
 *
 * @param method the method as messages name it
 * @param lockName the lock name (annotation {@code value} or its default)
 * @param redisBase the Redis key of the lock without its key part: prefix plus name
 * @param keys the key templates, each bound to parameter positions; empty for one lock per method
 */
public record LockPlan(
        String method,
        String lockName,
        String redisBase,
        List<BoundTemplate> keys,
        LockSettings settings,
        ReturnKind returnKind) {

    /**
     * A template whose placeholders are bound: {@code parameterIndexes.get(i)} is the argument position of
     * placeholder {@code i} of {@code template.placeholders()}.
     */
    public record BoundTemplate(KeyTemplate template, List<Integer> parameterIndexes) {}
}
