package dev.padlock.examples.inventory;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.KeysScanOptions;
import org.redisson.client.codec.StringCodec;

/**
 * Stock levels in Redis, one string key per SKU ({@code inventory:stock:<sku>}), read and written with plain GET
 * and SET. Nothing here is atomic: two callers can read the same level and both sell the last unit. That is the
 * point of the example; {@link Inventory} runs these methods under {@code @Locked}.
 */
@ApplicationScoped
public class Stock {

    static final String KEY_PREFIX = "inventory:stock:";

    @Inject
    RedissonClient redisson;

    /**
     * Milliseconds of work between reading a level and writing the new one, standing in for a price look-up or a
     * database call. It makes the race window wide enough for the unlocked control run to oversell every time.
     */
    @Inject
    @ConfigProperty(name = "inventory.work-ms", defaultValue = "5")
    int workMs;

    public int level(String sku) {
        String value = bucket(sku).get();
        return value == null ? 0 : Integer.parseInt(value);
    }

    public void set(String sku, int quantity) {
        bucket(sku).set(String.valueOf(quantity));
    }

    /** Takes {@code quantity} units; returns what is left, or throws when there are not enough. */
    public int take(String sku, int quantity) {
        int available = level(sku);
        if (available < quantity) {
            throw new OutOfStockException(sku, quantity, available);
        }
        work();
        int left = available - quantity;
        set(sku, left);
        return left;
    }

    public int add(String sku, int quantity) {
        int level = level(sku) + quantity;
        set(sku, level);
        return level;
    }

    /** Every SKU's level, sorted by SKU. */
    public Map<String, Integer> all() {
        Map<String, Integer> levels = new TreeMap<>();
        for (String key : redisson.getKeys().getKeys(KeysScanOptions.defaults().pattern(KEY_PREFIX + "*"))) {
            String sku = key.substring(KEY_PREFIX.length());
            levels.put(sku, level(sku));
        }
        return levels;
    }

    private RBucket<String> bucket(String sku) {
        return redisson.getBucket(KEY_PREFIX + sku, StringCodec.INSTANCE);
    }

    private void work() {
        try {
            Thread.sleep(workMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reserving stock", e);
        }
    }
}
