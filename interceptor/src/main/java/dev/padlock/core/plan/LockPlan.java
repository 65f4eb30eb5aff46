package dev.padlock.core.plan;

import dev.padlock.core.key.BoundTemplate;
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
        ReturnKind returnKind) {}
