package dev.padlock.examples.inventory;

import java.util.Map;
import java.util.TreeMap;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.KeysScanOptions;
import org.redisson.client.codec.StringCodec;

/**
 * Levels in Redis, one string key per SKU ({@code inventory:stock:<sku>}), read and written with plain GET and SET:
 * shared by every instance with no database to set up. Writes are not part of any transaction.
 */
final class RedisStockStore implements StockStore {

    static final String KEY_PREFIX = "inventory:stock:";

    private final RedissonClient redisson;

    RedisStockStore(RedissonClient redisson) {
        this.redisson = redisson;
    }

    @Override
    public int level(String sku) {
        String value = bucket(sku).get();
        return value == null ? 0 : Integer.parseInt(value);
    }

    @Override
    public void set(String sku, int quantity) {
        bucket(sku).set(String.valueOf(quantity));
    }

    @Override
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
}
