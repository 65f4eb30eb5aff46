package dev.padlock.examples.inventory;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Publishing the price list to the shop front, which one instance at a time may do. The lock is a named lock bean
 * ({@code @Named("price-list") RLock}, Redis key {@code padlock:price-list}, settings under {@code
 * padlock.locks.price-list.*}) used in code: an instance that finds it taken does not wait and reports that another
 * one is publishing.
 */
@ApplicationScoped
public class PriceList {

    static final String PUBLISHED = "inventory:price-list:published";

    @Inject
    @Named("price-list")
    RLock lock;

    @Inject
    RedissonClient redisson;

    /** How long publishing takes, in milliseconds (a stand-in for a slow shop front). */
    @Inject
    @ConfigProperty(name = "inventory.price-list-ms", defaultValue = "1000")
    long publishMs;

    /** When the price list was last published, by any instance. */
    public String publishedAt() {
        return redisson.<String>getBucket(PUBLISHED, StringCodec.INSTANCE).get();
    }

    /** Publishes, unless another instance is publishing right now: true when this call published. */
    public boolean publish() throws InterruptedException {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            Thread.sleep(publishMs);
            redisson.getBucket(PUBLISHED, StringCodec.INSTANCE)
                    .set(Instant.now().toString());
            return true;
        } finally {
            lock.unlock();
        }
    }
}
