package dev.padlock.contract;

import jakarta.enterprise.inject.spi.CDI;
import java.lang.annotation.Annotation;
import java.util.List;
import java.util.stream.StreamSupport;
import org.redisson.api.RedissonClient;

/**
 * The base of every scenario: what it asks of the runtime it runs on. A runner starts the scenario's application
 * (its {@code APPLICATION}, with {@code padlock.redis.address} pointing at a real Redis) before the scenario's tests
 * run, for each test or once for the class: a scenario resets what it counts, and never counts on what an earlier
 * test left behind.
 */
public abstract class Scenario {

    /**
     * The bean of {@code type} with these qualifiers in the application under test, found through
     * {@link CDI#current()}, which every CDI runtime answers with the one application it runs. A runner that starts
     * several at once overrides this to say which.
     */
    protected <T> T bean(Class<T> type, Annotation... qualifiers) {
        return CDI.current().select(type, qualifiers).get();
    }

    /** The client Padlock locks through, to look at Redis as the application sees it. */
    protected final RedissonClient redisson() {
        return bean(RedissonClient.class);
    }

    /** The keys under Padlock's default prefix that Redis holds now. */
    protected final List<String> padlockKeys() {
        return StreamSupport.stream(
                        redisson().getKeys().getKeysByPattern("padlock:*").spliterator(), false)
                .toList();
    }
}
