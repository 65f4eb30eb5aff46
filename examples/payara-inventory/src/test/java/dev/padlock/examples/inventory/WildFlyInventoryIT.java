package dev.padlock.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.examples.ledger.LedgerWar;
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
 * The same WAR as on Payara, unchanged, on WildFly 39 (the distribution the build unpacks into {@code target/}, booted
 * once for the class with {@code standalone-microprofile.xml}): WildFly brings its own Weld, SmallRye Config and
 * MicroProfile Health, the WAR its own Redisson and Netty in {@code WEB-INF/lib}.
 */
class WildFlyInventoryIT {

    static final Path WILDFLY_HOME = Path.of(System.getProperty("inventory.wildfly-home"));
    static final Path WAR = Path.of(System.getProperty("inventory.war"));
    static final Path LOGS = Path.of(System.getProperty("inventory.logs", "target/it-logs"));

    static final InventoryClient client = new InventoryClient();
    static RedisServer redis;
    static RunningApp wildFly;

    @BeforeAll
    static void start() {
        redis = Redis.startServer();
        // The example's WAR plus the transaction check's classes; the check's control lock releases on return.
        Path war = LedgerWar.of(WAR, LOGS.resolve("wildfly-ledger.war"));
        wildFly = InventoryApps.startWildFly(
                WILDFLY_HOME,
                war,
                "wildfly",
                redis.uri(),
                LOGS,
                Map.of("padlock.locks.ledger-on-return.release", "on-return"));
        client.warmUp(wildFly.baseUri());
    }

    @AfterAll
    static void stop() {
        try {
            if (wildFly != null) {
                wildFly.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Test
    void wildFlySellsExactlyTheStock() {
        InventoryChecks.sellsExactlyTheStock("WildFly", client, redis, List.of(wildFly.baseUri()), "apple");
    }

    /**
     * With WildFly's own transaction manager and its default datasource (H2): a caller's transaction around a locked
     * read-modify-write of a row, and a second caller starting as soon as the locked call returned. The lock outlives
     * the first transaction, so the second reads its commit (1) and both updates count (2); the control lock, released
     * on return, lets the second read the old row (0) and lose the first update (1). With padlock.release=on-return
     * for both, the first check failed the same way ("0 1").
     */
    @Test
    void theNextHolderReadsWhatTheCallersTransactionCommitted() throws Exception {
        assertThat(LedgerWar.check(wildFly.baseUri(), "after-transaction")).isEqualTo("1 2");
        assertThat(LedgerWar.check(wildFly.baseUri(), "on-return"))
                .as("control: released on return")
                .isEqualTo("0 1");
    }

    /**
     * WildFly serves MicroProfile Health on its management port; Padlock's readiness check, a bean the portable
     * extension adds, must be among the checks WildFly finds there.
     */
    @Test
    void readinessListsPadlocksCheckUp() {
        InventoryChecks.readinessListsPadlockUp(
                client.health(wildFly.uri(InventoryApps.MANAGEMENT), "health/ready"), redis);
    }
}
