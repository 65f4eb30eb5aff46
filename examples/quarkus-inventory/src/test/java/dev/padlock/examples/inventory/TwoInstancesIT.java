package dev.padlock.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.examples.load.ReservationRun;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two JVMs of the packaged service on one Redis, as two replicas behind a load balancer would be. 1,000 concurrent
 * one-unit reservations of a SKU with 100 in stock, spread over both: exactly 100 are confirmed, the stock ends at 0,
 * nothing is oversold. {@link UnlockedControlIT} sends the same load with the lock switched off and oversells, which
 * shows that this test can fail.
 */
class TwoInstancesIT {

    static final int STOCK = 100;
    static final int REQUESTS = 1_000;
    static final int CLIENT_THREADS = 64;

    static TwoInstances instances;

    @BeforeAll
    static void start() {
        // The nightly report and the price list hold their locks for 3 s, a stock count for 1.5 s, so that the other
        // instance surely finds them taken.
        instances = TwoInstances.start(
                "locked",
                Map.of(
                        "inventory.report-export-ms", "3000",
                        "inventory.price-list-ms", "3000",
                        "inventory.count-ms", "1500"));
    }

    @AfterAll
    static void stop() {
        if (instances != null) {
            instances.close();
        }
    }

    @Test
    void twoInstancesSellExactlyTheStock() {
        String sku = "apple";
        instances.client.restock(instances.uris().get(0), sku, STOCK);

        ReservationRun run = instances.client.reserveConcurrently(instances.uris(), sku, REQUESTS, CLIENT_THREADS);

        int left = instances.storedLevel(sku);
        System.out.printf(
                "Two locked instances: %s; %d left in stock, %d oversold%n", run, left, run.oversold(STOCK, left));
        assertThat(run.reserved()).as("confirmed reservations; %s", run).isEqualTo(STOCK);
        assertThat(left).as("stock left").isZero();
        assertThat(run.oversold(STOCK, left)).as("oversold").isZero();
        assertThat(run.reservedBy().values()).as("both instances sold").allMatch(count -> count > 0);
        assertThat(run.statuses().keySet())
                .as("answers: reserved, out of stock, or (under heavy load) lock wait timed out; %s", run)
                .isSubsetOf(200, 409, 503);
        assertThat(instances.client.level(instances.uris().get(1), sku)).isZero();
        // the snapshot job's key is left to expire on purpose (hold-at-least), whenever the test looks
        assertThat(instances.redis.command("KEYS", "padlock:*"))
                .as("locks left")
                .asList()
                .filteredOn(key -> !key.equals("padlock:stock-snapshot"))
                .isEmpty();
    }

    @Test
    void readinessListsPadlocksCheckUpWithTheAddress() {
        HttpResponse<String> ready = instances.client.health(instances.uris().get(0), "q/health/ready");

        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        assertThat(ready.body())
                .containsPattern("\\{\\s*\"name\"\\s*:\\s*\"padlock\"\\s*,\\s*\"status\"\\s*:\\s*\"UP\"")
                .contains("single [" + instances.redis.uri() + "]");
    }

    @Test
    void opposingTransfersOnTwoInstancesNeitherDeadlockNorLoseStock() throws Exception {
        List<URI> uris = instances.uris();
        instances.client.restock(uris.get(0), "pear", 1_000);
        instances.client.restock(uris.get(0), "plum", 1_000);
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                // pear -> plum on one instance, plum -> pear on the other: both keys, taken in opposite order.
                boolean even = i % 2 == 0;
                URI app = uris.get(even ? 0 : 1);
                answers.add(pool.submit(
                        () -> instances.client.transfer(app, even ? "pear" : "plum", even ? "plum" : "pear", 3)));
            }
            for (Future<HttpResponse<String>> answer : answers) {
                assertThat(answer.get(2, TimeUnit.MINUTES).statusCode()).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(instances.storedLevel("pear")).isEqualTo(1_000);
        assertThat(instances.storedLevel("plum")).isEqualTo(1_000);
    }

    @Test
    void metricsShowTheLocksByNameNeverByKey() throws Exception {
        URI app = instances.uris().get(0);
        instances.client.restock(app, "kiwi", 5);
        ReservationRun run = instances.client.reserveConcurrently(List.of(app), "kiwi", 5, 2);
        assertThat(run.reserved()).as("%s", run).isEqualTo(5);

        HttpResponse<String> metrics = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(app.resolve("/q/metrics")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(metrics.statusCode()).isEqualTo(200);
        List<String> padlock = metrics.body()
                .lines()
                .filter(line -> line.startsWith("padlock_"))
                .toList();
        assertThat(padlock)
                .as("Padlock's series on /q/metrics")
                .anyMatch(line -> line.startsWith("padlock_lock_acquire_seconds_count{")
                        && line.contains("lock=\"stock\"")
                        && line.contains("outcome=\"acquired\"")
                        && line.contains("type=\"fair\""))
                .anyMatch(line -> line.startsWith("padlock_lock_held_seconds_count{"))
                .noneMatch(line -> line.contains("kiwi"));
    }

    /**
     * The stock snapshot job runs once per occurrence, though both instances' schedulers fire it, the second one a
     * second late: the run leaves its key held at least 4 s, so the other instance skips that occurrence. The control, without
     * the lock, runs each occurrence on both ({@link UnlockedControlIT}).
     */
    @Test
    void eachSnapshotOccurrenceRunsOnOneInstanceOnly() throws InterruptedException {
        Map<Long, List<String>> runs = instances.snapshotRuns(3);
        assertThat(runs)
                .as("by occurrence, the instances that ran the snapshot")
                .allSatisfy((occurrence, ran) -> assertThat(ran).hasSize(1));
    }

    @Test
    void onlyOneInstanceRunsTheNightlyReport() throws Exception {
        List<URI> uris = instances.uris();
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> instances.client.nightlyReport(uris.get(0)));
        for (int waited = 0;
                !Long.valueOf(1).equals(instances.redis.command("EXISTS", "padlock:nightly-report"));
                waited++) {
            assertThat(waited)
                    .as("the first instance took padlock:nightly-report within 10 s")
                    .isLessThan(1_000);
            assertThat(first).isNotDone();
            Thread.sleep(10);
        }

        HttpResponse<String> second = instances.client.nightlyReport(uris.get(1));

        assertThat(second.statusCode()).as(second.body()).isEqualTo(409);
        assertThat(second.body()).contains("skipped");
        HttpResponse<String> ran = first.get(1, TimeUnit.MINUTES);
        assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);
        assertThat(ran.body()).contains("\"levels\"");
    }

    /**
     * A stock count ({@code POST /stock/<sku>/counts}) returns a {@code Uni}; the SKU's lock stays held in Redis until
     * the {@code Uni} completes, so a reservation of that SKU on the other instance waits for the count to finish.
     */
    @Test
    void aStockCountKeepsItsSkuLockedUntilItsUniCompletes() throws Exception {
        List<URI> uris = instances.uris();
        instances.client.restock(uris.get(0), "fig", 10);
        CompletableFuture<HttpResponse<String>> count =
                CompletableFuture.supplyAsync(() -> post(uris.get(0), "stock/fig/counts"));
        awaitKey("padlock:stock:fig", count);

        long sent = System.nanoTime();
        HttpResponse<String> reservation = post(uris.get(1), "stock/fig/reservations?quantity=1");
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);

        assertThat(reservation.statusCode()).as(reservation.body()).isEqualTo(200);
        assertThat(waitedMs).as("the reservation waited for the count").isGreaterThanOrEqualTo(1_000);
        HttpResponse<String> counted = count.get(1, TimeUnit.MINUTES);
        assertThat(counted.statusCode()).as(counted.body()).isEqualTo(200);
        assertThat(counted.body()).containsPattern("\"quantity\"\\s*:\\s*10\\b");
        assertThat(instances.storedLevel("fig")).isEqualTo(9);
    }

    /**
     * The price list is published under a named lock bean ({@code @Named("price-list") RLock}, key {@code
     * padlock:price-list}): while one instance publishes, the other skips; once it is done, the other may publish.
     */
    @Test
    void theNamedPriceListLockLetsOneInstancePublishAtATime() throws Exception {
        List<URI> uris = instances.uris();
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> post(uris.get(0), "price-list/publications"));
        awaitKey("padlock:price-list", first);

        HttpResponse<String> second = post(uris.get(1), "price-list/publications");

        assertThat(second.statusCode()).as(second.body()).isEqualTo(409);
        HttpResponse<String> published = first.get(1, TimeUnit.MINUTES);
        assertThat(published.statusCode()).as(published.body()).isEqualTo(200);
        assertThat(published.body()).contains("publishedAt");
        assertThat(instances.redis.command("EXISTS", "padlock:price-list")).isEqualTo(0L);
    }

    private static void awaitKey(String key, CompletableFuture<?> holder) throws InterruptedException {
        for (int waited = 0; !Long.valueOf(1).equals(instances.redis.command("EXISTS", key)); waited++) {
            assertThat(waited).as("%s taken within 10 s", key).isLessThan(1_000);
            assertThat(holder).as("still holding %s", key).isNotDone();
            Thread.sleep(10);
        }
    }

    private static HttpResponse<String> post(URI app, String path) {
        try {
            return HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(app.resolve(path))
                                    .timeout(Duration.ofMinutes(1))
                                    .POST(HttpRequest.BodyPublishers.noBody())
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException("POST " + app.resolve(path) + " failed: " + e, e);
        }
    }
}
