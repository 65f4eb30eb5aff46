package dev.padlock.docs.snippets;

import dev.padlock.LockContext;
import dev.padlock.Locks;
import org.redisson.api.RedissonClient;

/**
 * What a documentation snippet marked {@code <!-- java: members -->} or {@code <!-- java: statements -->} finds around
 * it, as an application bean would have them injected ({@code DocumentationTest} compiles the snippets; nothing runs
 * them).
 */
public abstract class SnippetContext {

    protected Locks locks;
    protected LockContext lock;
    protected RedissonClient redisson;
}
