package dev.padlock.examples.inventory;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Map;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.redisson.api.RedissonClient;

/**
 * Stock levels, read and written with plain reads and writes. Nothing here is atomic: two callers can read the same
 * level and both sell the last unit. That is the point of the example; {@link Inventory} runs these methods under
 * {@code @Locked}, and the resources call it inside a transaction of their own ({@code @Transactional}).
 *
 * <p>Where the levels live is {@code inventory.stock-store}: {@code redis} (the default; what the WAR uses on Payara,
 * WildFly and Open Liberty, where a shared database would need each server's own configuration) or {@code database}
 * (the application's datasource; what the Quarkus example uses). With a database the writes join the resource's
 * transaction, and the lock is kept until that transaction commits, so the next reservation reads the committed level.
 */
@ApplicationScoped
public class Stock {

    @Inject
    RedissonClient redisson;

    @Inject
    Instance<DataSource> databases;

    @Inject
    @ConfigProperty(name = "inventory.stock-store", defaultValue = "redis")
    String storeName;

    /**
     * Milliseconds of work between reading a level and writing the new one, standing in for a price look-up or a
     * database call. It makes the race window wide enough for the unlocked control run to oversell every time.
     */
    @Inject
    @ConfigProperty(name = "inventory.work-ms", defaultValue = "5")
    int workMs;

    private StockStore store;

    @PostConstruct
    void chooseStore() {
        store = switch (storeName) {
            case "redis" -> new RedisStockStore(redisson);
            case "database" -> new DatabaseStockStore(databases.get());
            default ->
                throw new IllegalStateException("inventory.stock-store is '" + storeName + "': use redis or database");
        };
    }

    public int level(String sku) {
        return store.level(sku);
    }

    public void set(String sku, int quantity) {
        store.set(sku, quantity);
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
        return store.all();
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
