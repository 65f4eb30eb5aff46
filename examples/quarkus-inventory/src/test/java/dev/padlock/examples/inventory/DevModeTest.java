package dev.padlock.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.padlock.examples.browser.HeadlessBrowser;
import dev.padlock.examples.load.FreePort;
import dev.padlock.examples.load.InventoryClient;
import dev.padlock.examples.load.ReservationRun;
import io.quarkus.test.QuarkusDevModeTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The example as a developer runs it ({@code quarkus:dev}), once for all checks: Padlock's Dev Services start a local
 * redis-server, reservations lock on it, {@code /q/health/ready} includes Padlock's check, {@code /q/metrics} shows
 * the {@code stock} lock's meters, and the Dev UI has Padlock's card with the example's locked methods, and on its live
 * page the locks held now, queued callers and a recent loss (of the test-only {@link LockProbe}, added to the
 * application). The Dev UI's data is read as the page receives it ({@link DevUiData}); one look in headless Chromium
 * then shows that the pages render it. Screenshots of those pages land in {@code target/dev-ui/}.
 */
class DevModeTest {

    static final int PORT = FreePort.find();
    static final URI APP = URI.create("http://localhost:" + PORT + "/");
    static final Path SCREENSHOTS = Path.of("target", "dev-ui");

    /** The example's own application.properties, on a port of this test's choosing. */
    @RegisterExtension
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(StockSnapshotJob.class, LockProbe.class, LockProbeResource.class)
                    .addAsResource(
                            new StringAsset(exampleProperties() + "\nquarkus.http.port=" + PORT + "\n"),
                            "application.properties"));

    final InventoryClient client = new InventoryClient();

    /** One test, because QuarkusDevModeTest starts the application anew for every test method. */
    @Test
    void devModeShowsPadlockInHealthMetricsAndTheDevUi() throws Exception {
        reservationsLockOnTheDevServicesRedisAndShowInTheMetrics();
        readinessIncludesPadlocksCheck();
        devUiDataListsEveryLockedMethodWithItsSettings();

        assertThat(post("probe/overrun").join().body()).isEqualTo("done");
        List<CompletableFuture<HttpResponse<String>>> holders = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                holders.add(post("probe/hold/a-1"));
            }
            devUiLiveDataShowsTheHeldLockItsQueuedCallersAndTheLoss();
            devUiPagesShowPadlocksCardTheLockedMethodsAndTheLiveLocks();
        } finally {
            post("probe/release").join();
        }
        for (CompletableFuture<HttpResponse<String>> holder : holders) {
            assertThat(holder.get(60, TimeUnit.SECONDS).body()).isEqualTo("a-1");
        }
        devUiLiveDataShowsNothingHeldOnceReleasedAndKeepsTheLoss();
    }

    private void reservationsLockOnTheDevServicesRedisAndShowInTheMetrics() throws Exception {
        client.restock(APP, "fig", 5);
        ReservationRun run = client.reserveConcurrently(List.of(APP), "fig", 8, 4);

        assertThat(run.reserved()).as("%s", run).isEqualTo(5);
        assertThat(run.statuses()).as("%s", run).containsEntry(409, 3);
        assertThat(client.level(APP, "fig")).isZero();
        List<String> padlock = get("q/metrics")
                .lines()
                .filter(line -> line.startsWith("padlock_"))
                .toList();
        List<String> stockAcquired = padlock.stream()
                .filter(line -> line.startsWith("padlock_lock_acquire_seconds_count{")
                        && line.contains("lock=\"stock\"")
                        && line.contains("outcome=\"acquired\"")
                        && line.contains("type=\"fair\""))
                .toList();
        // Every call took the lock: the restock, the five reservations, and the three that then found no stock.
        assertThat(stockAcquired.stream()
                        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                        .sum())
                .as("acquisitions of lock stock on /q/metrics: %s", stockAcquired)
                .isEqualTo(9.0);
        assertThat(padlock)
                .as("Padlock's series are tagged by lock name, never by key")
                .noneMatch(l -> l.contains("fig"));
    }

    /** After the reservations Padlock is connected, so the check is UP at once (while connecting it is DOWN). */
    private void readinessIncludesPadlocksCheck() {
        HttpResponse<String> ready = client.health(APP, "q/health/ready");

        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        assertThat(ready.body())
                .containsPattern("\\{\\s*\"name\"\\s*:\\s*\"padlock\"\\s*,\\s*\"status\"\\s*:\\s*\"UP\"")
                .contains("single [redis://127.0.0.1:");
    }

    /** The card's tables, one row per locked method with the settings the rules resolved, and no named lock. */
    private void devUiDataListsEveryLockedMethodWithItsSettings() throws Exception {
        Map<String, JsonNode> data = new DevUiData(APP).buildTimeData();
        assertThat(data).containsKey("lockedMethods");

        List<Map<String, String>> methods = rows(data.get("lockedMethods"));
        assertThat(methods)
                .as("the example's four locked methods, its snapshot job and LockProbe's two")
                .hasSize(7)
                .contains(
                        row(
                                "method", "dev.padlock.examples.inventory.Inventory#reserve(String, int)",
                                "lock", "stock",
                                "keys", "padlock:stock:{sku}",
                                "type", "FAIR",
                                "wait", "5s",
                                "lease", "watchdog",
                                "on failure", "THROW",
                                "release", "after-transaction",
                                "hold at least", "-",
                                "lock delay", "-",
                                "on lease lost", "warn"),
                        row(
                                "method", "dev.padlock.examples.inventory.Inventory#nightlyReport()",
                                "lock", "nightly-report",
                                "keys", "padlock:nightly-report",
                                "type", "REENTRANT",
                                "wait", "0ms",
                                "lease", "watchdog",
                                "on failure", "SKIP",
                                "release", "after-transaction",
                                "hold at least", "-",
                                "lock delay", "-",
                                "on lease lost", "warn"),
                        row(
                                "method",
                                        "dev.padlock.examples.inventory.StockSnapshotJob#snapshot(ScheduledExecution)",
                                "lock", "stock-snapshot",
                                "keys", "padlock:stock-snapshot",
                                "type", "REENTRANT",
                                "wait", "0ms",
                                "lease", "watchdog",
                                "on failure", "SKIP",
                                "release", "after-transaction",
                                "hold at least", "30s",
                                "lock delay", "-",
                                "on lease lost", "warn"));
        assertThat(methods)
                .filteredOn(row -> row.get("method").startsWith("dev.padlock.examples.inventory.Inventory#transfer("))
                .singleElement()
                .satisfies(row -> assertThat(row)
                        .containsEntry("keys", "padlock:stock:{from}, padlock:stock:{to}")
                        .containsEntry("type", "FAIR"));
        assertThat(data.containsKey("namedLocks") ? rows(data.get("namedLocks")) : List.of())
                .as("no named lock (the Dev UI leaves out an empty table's data)")
                .isEmpty();
    }

    /**
     * What the live page polls while one call of {@link LockProbe#hold} holds {@code padlock:probe:a-1} and two more
     * queue behind it in the application; {@link LockProbe#overrun} outlived its 300 ms lease before.
     */
    private void devUiLiveDataShowsTheHeldLockItsQueuedCallersAndTheLoss() throws Exception {
        DevUiData devUi = new DevUiData(APP);
        JsonNode live = awaitLive(devUi, "two callers queued on padlock:probe:a-1", page -> page.get("queues")
                .toString()
                .contains("\"waiting\":2"));

        assertThat(rows(live.get("held"))).singleElement().satisfies(row -> assertThat(row)
                .containsEntry("key", "padlock:probe:a-1")
                .containsEntry("lock", "probe")
                .containsEntry("method", "dev.padlock.examples.inventory.LockProbe#hold(String)")
                .containsEntry("type", "REENTRANT")
                .containsEntry("lease", "watchdog")
                .containsEntry("state", "running"));
        assertThat(rows(live.get("queues"))).containsExactly(Map.of("key", "padlock:probe:a-1", "waiting", "2"));
        assertThat(rows(live.get("losses"))).anySatisfy(row -> assertThat(row)
                .containsEntry("key", "padlock:probe-lease")
                .containsEntry("method", "dev.padlock.examples.inventory.LockProbe#overrun()")
                .containsEntry("detectedBy", "DEADLINE"));
        assertThat(devUi.call("heldCount").asInt())
                .as("the card's label: the locks held now")
                .isEqualTo(1);
    }

    private void devUiLiveDataShowsNothingHeldOnceReleasedAndKeepsTheLoss() throws Exception {
        DevUiData devUi = new DevUiData(APP);
        JsonNode live =
                awaitLive(devUi, "nothing held", page -> page.get("held").isEmpty());

        assertThat(rows(live.get("queues"))).isEmpty();
        assertThat(rows(live.get("losses"))).anyMatch(row -> row.get("key").equals("padlock:probe-lease"));
        assertThat(devUi.call("heldCount").asInt()).isZero();
    }

    /**
     * What a developer sees, in a real browser: the card among the extensions with its page links and their counts,
     * the table the "Locked methods" link opens, and the live page. The data itself is checked above; this shows
     * that the pages render it. A row's cells come out in column order in the page's text.
     */
    private void devUiPagesShowPadlocksCardTheLockedMethodsAndTheLiveLocks() {
        try (HeadlessBrowser browser = HeadlessBrowser.start()) {
            try {
                browser.open(APP.resolve("q/dev-ui/extensions"));
                assertThat(browser.awaitText("Locks held now 1"))
                        .as("Padlock's card")
                        .contains("Padlock EXPERIMENTAL @Locked: run CDI bean methods")
                        .contains("Locked methods 7")
                        .contains("Named locks 0");
                browser.screenshot(SCREENSHOTS.resolve("extensions.png"));

                // Opened by its address, as the live page below: since the example has a datasource, the Agroal and
                // Datasources cards load beside Padlock's and move it while the click is aimed (it hit "Named locks").
                browser.open(APP.resolve("q/dev-ui/" + DevUiData.EXTENSION + "/locked-methods"));
                String methods = browser.awaitText("Method Lock Keys Type Wait Lease On failure Release");
                assertThat(browser.currentUrl()).contains("/q/dev-ui/").contains("locked-methods");
                assertThat(methods)
                        .as("the Locked methods table")
                        .contains("dev.padlock.examples.inventory.Inventory#reserve(String, int) stock"
                                + " padlock:stock:{sku} FAIR 5s watchdog THROW after-transaction");
                browser.screenshot(SCREENSHOTS.resolve("locked-methods.png"));

                // Opened by its address, not by a click: the link's label is refreshed over JSON-RPC, and a click
                // that lands while it re-renders is lost (seen in CI).
                browser.open(APP.resolve("q/dev-ui/" + DevUiData.EXTENSION + "/locks-held-now"));
                assertThat(browser.awaitText("padlock:probe:a-1 2"))
                        .as("the live page")
                        .containsPattern("Held now \\(\\s*1\\s*\\)")
                        .containsPattern(
                                "padlock:probe:a-1 probe dev.padlock.examples.inventory.LockProbe#hold\\(String\\)"
                                        + " REENTRANT [0-9.]+ m?s [0-9.]+ m?s watchdog running")
                        .contains("Queued callers key callers waiting padlock:probe:a-1 2")
                        .containsPattern("padlock:probe-lease dev.padlock.examples.inventory.LockProbe#overrun\\(\\)"
                                + " DEADLINE");
                browser.screenshot(SCREENSHOTS.resolve("locks-held-now.png"));
            } catch (RuntimeException | AssertionError e) {
                browser.screenshot(SCREENSHOTS.resolve("failed.png"));
                throw e;
            }
        }
    }

    /** Polls the live page's data until {@code ready} holds: the application takes a moment to queue the callers. */
    private static JsonNode awaitLive(DevUiData devUi, String what, Predicate<JsonNode> ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode live = devUi.call("liveLocks");
        while (!ready.test(live)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("The live data never showed " + what + ": " + live);
            }
            Thread.sleep(100);
            live = devUi.call("liveLocks");
        }
        return live;
    }

    /** A JSON array of objects as rows of text cells. */
    private static List<Map<String, String>> rows(JsonNode array) {
        assertThat(array).as("a table of rows").isNotNull();
        List<Map<String, String>> rows = new ArrayList<>();
        for (JsonNode row : array) {
            Map<String, String> cells = new LinkedHashMap<>();
            row.fields()
                    .forEachRemaining(
                            cell -> cells.put(cell.getKey(), cell.getValue().asText()));
            rows.add(cells);
        }
        return rows;
    }

    private static CompletableFuture<HttpResponse<String>> post(String path) {
        return HttpClient.newHttpClient()
                .sendAsync(
                        HttpRequest.newBuilder(APP.resolve(path))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .timeout(Duration.ofSeconds(90))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(APP.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as("GET /%s: %s", path, response.body())
                .isEqualTo(200);
        return response.body();
    }

    private static String exampleProperties() {
        try (InputStream in = DevModeTest.class.getResourceAsStream("/application.properties")) {
            if (in == null) {
                throw new IllegalStateException("The example's application.properties is not on the test class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An expected row of the Dev UI's table: more columns than {@code Map.of} takes. */
    private static Map<String, String> row(String... columnsAndValues) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            row.put(columnsAndValues[i], columnsAndValues[i + 1]);
        }
        return row;
    }
}
