package dev.padlock.examples.inventory;

import dev.padlock.examples.load.InventoryApps;
import dev.padlock.examples.load.InventoryClient;
import dev.padlock.examples.load.RunningApp;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same WAR as on Payara, unchanged, on Open Liberty (the runtime the build unpacks into {@code target/wlp}, booted
 * once for the class with only the features the WAR uses): Open Liberty brings its own Weld, MicroProfile
 * Config and Health, the WAR its own Redisson and Netty in {@code WEB-INF/lib}.
 */
class OpenLibertyInventoryIT {

    static final Path LIBERTY_HOME = Path.of(System.getProperty("inventory.openliberty-home"));
    static final Path WAR = Path.of(System.getProperty("inventory.war"));
    static final Path LOGS = Path.of(System.getProperty("inventory.logs", "target/it-logs"));

    static final InventoryClient client = new InventoryClient();
    static RedisServer redis;
    static RunningApp liberty;

    @BeforeAll
    static void start() {
        redis = Redis.startServer();
        liberty = InventoryApps.startOpenLiberty(LIBERTY_HOME, WAR, "openliberty", redis.uri(), LOGS, Map.of());
        client.warmUp(liberty.baseUri());
    }

    @AfterAll
    static void stop() {
        try {
            if (liberty != null) {
                liberty.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Test
    void openLibertySellsExactlyTheStock() {
        InventoryChecks.sellsExactlyTheStock("Open Liberty", client, redis, List.of(liberty.baseUri()), "apple");
    }

    /** Open Liberty serves MicroProfile Health on the application's HTTP port, as Payara Micro does. */
    @Test
    void readinessListsPadlocksCheckUp() {
        InventoryChecks.readinessListsPadlockUp(client.health(liberty.baseUri(), "health/ready"), redis);
    }
}
