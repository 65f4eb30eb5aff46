package dev.padlock.examples.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Talks to running inventory services (the Quarkus and the Payara example expose the same HTTP API) and fires
 * concurrent reservations at several of them at once.
 */
public final class InventoryClient {

    private static final Pattern QUANTITY = Pattern.compile("\"quantity\"\\s*:\\s*(-?\\d+)");
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    /** {@code PUT /stock/<sku>?quantity=<n>}. */
    public void restock(URI app, String sku, int quantity) {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(app.resolve("stock/" + sku + "?quantity=" + quantity))
                        .PUT(HttpRequest.BodyPublishers.noBody()));
        expectOk(response);
    }

    /** {@code GET /stock/<sku>}: the level the service reports. */
    public int level(URI app, String sku) {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(app.resolve("stock/" + sku)).GET());
        expectOk(response);
        Matcher quantity = QUANTITY.matcher(response.body());
        if (!quantity.find()) {
            throw new IllegalStateException("No quantity in " + response.uri() + "'s answer: " + response.body());
        }
        return Integer.parseInt(quantity.group(1));
    }

    /** {@code POST /reports/nightly}: 200 when this instance ran the job, 409 when it skipped it. */
    public HttpResponse<String> nightlyReport(URI app) {
        return send(HttpRequest.newBuilder(app.resolve("reports/nightly")).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** {@code POST /transfers?from=<sku>&to=<sku>&quantity=<n>}. */
    public HttpResponse<String> transfer(URI app, String from, String to, int quantity) {
        return send(
                HttpRequest.newBuilder(app.resolve("transfers?from=" + from + "&to=" + to + "&quantity=" + quantity))
                        .POST(HttpRequest.BodyPublishers.noBody()));
    }

    /**
     * A GET of a health endpoint, relative to the application's root: {@code q/health/ready} on Quarkus,
     * {@code health/ready} on Payara Micro. Any status: a check that is down answers 503.
     */
    public HttpResponse<String> health(URI app, String path) {
        return send(HttpRequest.newBuilder(app.resolve(path)).GET());
    }

    /**
     * A few locked calls on a SKU of its own, so that connection pools and the JIT are warm before a measured burst
     * and its first calls do not spend their lock wait on start-up costs.
     */
    public void warmUp(URI app) {
        String sku = "warm-up-" + app.getPort();
        restock(app, sku, 20);
        for (int i = 0; i < 20; i++) {
            expectOk(send(HttpRequest.newBuilder(app.resolve("stock/" + sku + "/reservations?quantity=1"))
                    .POST(HttpRequest.BodyPublishers.noBody())));
        }
    }

    /**
     * Sends {@code requests} reservations of one unit of {@code sku}, from {@code threads} client threads released
     * together, spread round-robin over {@code apps}, half of them as order lines ({@code POST /orders}), and counts
     * the answers.
     */
    public ReservationRun reserveConcurrently(List<URI> apps, String sku, int requests, int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Answer>> answers = new ArrayList<>(requests);
            for (int i = 0; i < requests; i++) {
                URI app = apps.get(i % apps.size());
                // Every other request is an order line, locked in code (Locks) instead of by @Locked: both front
                // doors take padlock:stock:<sku>, so the exact count holds only if they exclude each other too.
                String path = (i / apps.size()) % 2 == 0
                        ? "stock/" + sku + "/reservations?quantity=1"
                        : "orders?item=" + sku + "&quantity=1";
                HttpRequest reserve = HttpRequest.newBuilder(app.resolve(path))
                        .timeout(REQUEST_TIMEOUT)
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build();
                answers.add(pool.submit(() -> {
                    start.await();
                    HttpResponse<String> response = http.send(reserve, HttpResponse.BodyHandlers.ofString());
                    return new Answer(app, response.statusCode(), response.body());
                }));
            }
            start.countDown();
            Map<URI, Integer> reservedBy = new TreeMap<>();
            apps.forEach(app -> reservedBy.put(app, 0));
            Map<Integer, Integer> statuses = new TreeMap<>();
            List<String> unexpected = new ArrayList<>();
            for (Future<Answer> future : answers) {
                Answer answer = future.get();
                statuses.merge(answer.status(), 1, Integer::sum);
                if (answer.status() == 200) {
                    reservedBy.merge(answer.app(), 1, Integer::sum);
                } else if (answer.status() != 409 && unexpected.size() < 5) {
                    unexpected.add(answer.status() + " from " + answer.app() + ": " + answer.body());
                }
            }
            return new ReservationRun(requests, reservedBy, statuses, unexpected);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending reservations", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("A reservation request failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("Request failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    private static void expectOk(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException(response.request().method() + " " + response.uri() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
    }

    private record Answer(URI app, int status, String body) {}
}
