package dev.padlock.examples.inventory;

import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.OnFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** The inventory's operations, each under a Redis lock shared by every instance of the service. */
@ApplicationScoped
public class Inventory {

    @Inject
    Stock stock;

    @Inject
    RedissonClient redisson;

    @Inject
    Locks locks;

    /** How long the nightly report's export takes, in milliseconds (a stand-in for a slow downstream system). */
    @Inject
    @ConfigProperty(name = "inventory.report-export-ms", defaultValue = "1000")
    int exportMs;

    /** Lock {@code padlock:stock:<sku>}: one reservation per SKU at a time, across all instances. */
    @Locked(value = "stock", key = "{sku}")
    public Reservation reserve(String sku, int quantity) {
        int left = stock.take(sku, quantity);
        return new Reservation(sku, quantity, left);
    }

    /**
     * A reservation from an order line, whose item the shop front may pad with spaces: the SKU, and so the lock, is
     * known only inside the method. {@code Locks} takes the same key as {@link #reserve} ({@code padlock:stock:<sku>}),
     * so order lines and reservations of one SKU exclude each other.
     */
    public Reservation order(String item, int quantity) {
        String sku = item.strip();
        return locks.on("stock", sku).get(() -> new Reservation(sku, quantity, stock.take(sku, quantity)));
    }

    /** Sets a SKU's level; under the same lock, so it cannot be overwritten by a reservation in flight. */
    @Locked(value = "stock", key = "{sku}")
    public void restock(String sku, int quantity) {
        stock.set(sku, quantity);
    }

    /**
     * Locks {@code padlock:stock:<from>} and {@code padlock:stock:<to>} together (taken in sorted order, so a
     * transfer from a to b and one from b to a cannot deadlock), and excludes reservations of either SKU.
     */
    @Locked(
            value = "stock",
            key = {"{from}", "{to}"})
    public Transfer transfer(String from, String to, int quantity) {
        int fromLeft = stock.take(from, quantity);
        int toLevel = stock.add(to, quantity);
        return new Transfer(from, to, quantity, fromLeft, toLevel);
    }

    /**
     * A nightly job that every instance's scheduler triggers, but only one should run: the others find the lock
     * {@code padlock:nightly-report} taken, do not wait ({@code waitTime = "0"}) and get {@code Optional.empty()}.
     */
    @Locked(value = "nightly-report", waitTime = "0", onFailure = OnFailure.SKIP)
    public Optional<StockReport> nightlyReport() throws InterruptedException {
        StockReport report = new StockReport(Instant.now(), stock.all());
        Thread.sleep(exportMs);
        redisson.getBucket("inventory:last-report", StringCodec.INSTANCE).set(report.toString());
        return Optional.of(report);
    }
}
