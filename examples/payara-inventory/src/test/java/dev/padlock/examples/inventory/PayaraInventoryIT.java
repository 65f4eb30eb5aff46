package dev.padlock.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.examples.ledger.LedgerWar;
import dev.padlock.examples.load.InventoryApps;
import dev.padlock.examples.load.InventoryClient;
import dev.padlock.examples.load.ReservationRun;
import dev.padlock.examples.load.RunningApp;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The WAR on Payara Micro 6 (booted once for the class, it takes about 30 s), with only padlock-extension added:
 * the same concurrent-reservation check as the Quarkus example's, then Payara and the packaged Quarkus example
 * together on one Redis, sharing the same lock keys ({@code padlock:stock:<sku>}, {@code padlock:nightly-report})
 * and the same stock keys.
 */
class PayaraInventoryIT {

    static final Path PAYARA_MICRO = Path.of(System.getProperty("inventory.payara-micro", "target/payara-micro.jar"));
    static final Path WAR = Path.of(System.getProperty("inventory.war"));
    static final Path QUARKUS_APP = Path.of(
            System.getProperty("inventory.quarkus-app", "../quarkus-inventory/target/quarkus-app/quarkus-run.jar"));
    static final Path LOGS = Path.of(System.getProperty("inventory.logs", "target/it-logs"));

    static final InventoryClient client = new InventoryClient();
    static RedisServer redis;
    static RunningApp payara;

    @BeforeAll
    static void start() {
        redis = Redis.startServer();
        // The nightly report holds its lock for 3 s, so the other runtime surely finds it taken.
        // The example's WAR plus the transaction check's classes; the check's control lock releases on return.
        payara = InventoryApps.startPayara(
                PAYARA_MICRO,
                LedgerWar.of(WAR, LOGS.resolve("payara-ledger.war")),
                "payara",
                redis.uri(),
                LOGS,
                Map.of(
                        "inventory.report-export-ms", "3000",
                        "padlock.locks.ledger-on-return.release", "on-return"));
        client.warmUp(payara.baseUri());
    }

    @AfterAll
    static void stop() {
        try {
            if (payara != null) {
                payara.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Test
    void payaraSellsExactlyTheStock() {
        InventoryChecks.sellsExactlyTheStock("Payara", client, redis, List.of(payara.baseUri()), "apple");
    }

    /**
     * With Payara's own transaction manager and its default datasource (H2): the lock outlives the caller's
     * transaction, so the second caller reads its commit (1) and both updates count (2); the control, released on
     * return, reads the old row (0) and loses the first update (1). The same check as on WildFly.
     */
    @Test
    void theNextHolderReadsWhatTheCallersTransactionCommitted() throws Exception {
        assertThat(LedgerWar.check(payara.baseUri(), "after-transaction")).isEqualTo("1 2");
        assertThat(LedgerWar.check(payara.baseUri(), "on-return"))
                .as("control: released on return")
                .isEqualTo("0 1");
    }

    /** Payara Micro ships MicroProfile Health, so the portable extension adds Padlock's readiness check there. */
    @Test
    void readinessListsPadlocksCheckUp() {
        InventoryChecks.readinessListsPadlockUp(client.health(payara.baseUri(), "health/ready"), redis);
    }

    @Test
    void quarkusAndPayaraTogetherSellExactlyTheStock() {
        try (RunningApp quarkus = startQuarkus("quarkus-beside-payara")) {
            String sku = "cherry";
            ReservationRun run = InventoryChecks.sellsExactlyTheStock(
                    "Quarkus + Payara", client, redis, List.of(quarkus.baseUri(), payara.baseUri()), sku);

            assertThat(run.reservedBy().values()).as("both runtimes sold").allMatch(count -> count > 0);
            assertThat(client.level(payara.baseUri(), sku)).isZero();
        }
    }

    @Test
    void theNightlyReportRunsOnOneRuntimeOnly() throws Exception {
        try (RunningApp quarkus = startQuarkus("quarkus-nightly")) {
            CompletableFuture<HttpResponse<String>> onPayara =
                    CompletableFuture.supplyAsync(() -> client.nightlyReport(payara.baseUri()));
            for (int waited = 0; !Long.valueOf(1).equals(redis.command("EXISTS", "padlock:nightly-report")); waited++) {
                assertThat(waited)
                        .as("Payara took padlock:nightly-report within 10 s")
                        .isLessThan(1_000);
                assertThat(onPayara).isNotDone();
                Thread.sleep(10);
            }

            HttpResponse<String> onQuarkus = client.nightlyReport(quarkus.baseUri());

            assertThat(onQuarkus.statusCode()).as(onQuarkus.body()).isEqualTo(409);
            HttpResponse<String> ran = onPayara.get(1, TimeUnit.MINUTES);
            assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);
        }
    }

    private static RunningApp startQuarkus(String name) {
        // Beside Payara, the Quarkus example keeps its stock where the WAR does, in Redis, so both sell the same units.
        RunningApp quarkus = InventoryApps.startQuarkus(
                QUARKUS_APP, name, redis.uri(), LOGS, Map.of("inventory.stock-store", "redis"));
        try {
            client.warmUp(quarkus.baseUri());
            return quarkus;
        } catch (RuntimeException | Error e) {
            quarkus.close();
            throw e;
        }
    }
}
