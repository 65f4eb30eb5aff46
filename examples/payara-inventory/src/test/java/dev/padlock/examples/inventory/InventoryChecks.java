package dev.padlock.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.examples.load.InventoryClient;
import dev.padlock.examples.load.ReservationRun;
import dev.padlock.testing.RedisServer;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;

/** What every server that runs the WAR must show, whichever server it is. */
final class InventoryChecks {

    static final int STOCK = 100;
    static final int REQUESTS = 1_000;
    static final int CLIENT_THREADS = 64;

    private InventoryChecks() {}

    /**
     * 1,000 concurrent one-unit reservations (64 client threads) of a SKU with 100 in stock, spread over the given
     * instances, give exactly 100 confirmations, leave the stock at 0, and leave no lock behind in Redis.
     */
    static ReservationRun sellsExactlyTheStock(
            String runtimes, InventoryClient client, RedisServer redis, List<URI> apps, String sku) {
        client.restock(apps.get(0), sku, STOCK);

        ReservationRun run = client.reserveConcurrently(apps, sku, REQUESTS, CLIENT_THREADS);

        int left = Integer.parseInt(String.valueOf(redis.command("GET", "inventory:stock:" + sku)));
        System.out.printf("%s: %s; %d left in stock, %d oversold%n", runtimes, run, left, run.oversold(STOCK, left));
        assertThat(run.reserved()).as("confirmed reservations; %s", run).isEqualTo(STOCK);
        assertThat(left).as("stock left").isZero();
        assertThat(run.oversold(STOCK, left)).as("oversold").isZero();
        assertThat(run.statuses().keySet())
                .as("answers: reserved, out of stock, or (under heavy load) lock wait timed out; %s", run)
                .isSubsetOf(200, 409, 503);
        // the Quarkus instances' snapshot job leaves its key to expire on purpose (hold-at-least), should it fire
        assertThat(redis.command("KEYS", "padlock:*"))
                .as("locks left")
                .asList()
                .filteredOn(key -> !key.equals("padlock:stock-snapshot"))
                .isEmpty();
        return run;
    }

    /**
     * The server's MicroProfile Health readiness lists Padlock's check, up, with the Redis address: the portable
     * extension adds it wherever the server ships MicroProfile Health.
     */
    static void readinessListsPadlockUp(HttpResponse<String> ready, RedisServer redis) {
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        assertThat(ready.body())
                .containsPattern("\\{\\s*\"name\"\\s*:\\s*\"padlock\"\\s*,\\s*\"status\"\\s*:\\s*\"UP\"")
                .contains("single [" + redis.uri() + "]");
    }
}
