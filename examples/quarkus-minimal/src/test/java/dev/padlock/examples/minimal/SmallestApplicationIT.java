package dev.padlock.examples.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.testing.RedisServer;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged application as a user would ship it (with {@code -Dnative}: the native executable), on a Redis of the
 * test's own: the blocking method's calls exclude each other and see their lock, and the {@code Uni} method keeps its
 * key in Redis until the {@code Uni} completes.
 */
@QuarkusIntegrationTest
@WithTestResource(TestRedis.class)
class SmallestApplicationIT {

    static final int SALES = 40;

    @TestHTTPResource("/")
    URI app;

    /** Injected by {@link TestRedis}. */
    RedisServer redis;

    final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void blockingCallsExcludeEachOtherAndSeeTheirLock() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < SALES; i++) {
                answers.add(pool.submit(() -> post("tickets/concert")));
            }
            for (Future<HttpResponse<String>> answer : answers) {
                HttpResponse<String> sale = answer.get(1, TimeUnit.MINUTES);
                assertThat(sale.statusCode()).as(sale.body()).isEqualTo(200);
                assertThat(sale.body()).contains("key=padlock:tickets:concert held=true");
            }
        } finally {
            pool.shutdownNow();
        }

        // each sale read the count and wrote it back 2 ms later: only exclusion makes them add up
        assertThat(get("tickets/concert").body()).isEqualTo(String.valueOf(SALES));
        assertThat(redis.command("KEYS", "padlock:*")).as("locks left").asList().isEmpty();
    }

    @Test
    void uniCallKeepsItsKeyInRedisUntilTheUniCompletes() throws Exception {
        CompletableFuture<HttpResponse<String>> hold =
                CompletableFuture.supplyAsync(() -> post("tickets/show/hold?ms=1500"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Long.valueOf(1).equals(redis.command("EXISTS", "padlock:tickets:show"))) {
            assertThat(System.nanoTime())
                    .as("padlock:tickets:show taken within 10 s")
                    .isLessThan(deadline);
            assertThat(hold).isNotDone();
            Thread.sleep(10);
        }

        long sent = System.nanoTime();
        HttpResponse<String> sale = post("tickets/show");
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);

        assertThat(sale.statusCode()).as(sale.body()).isEqualTo(200);
        assertThat(waitedMs).as("the blocking sale waited for the Uni's hold").isGreaterThanOrEqualTo(1_000);
        HttpResponse<String> held = hold.get(1, TimeUnit.MINUTES);
        assertThat(held.statusCode()).as(held.body()).isEqualTo(200);
        assertThat(held.body()).isEqualTo("held show for 1500 ms; sold=0");
        assertThat(redis.command("KEYS", "padlock:*")).as("locks left").asList().isEmpty();
    }

    private HttpResponse<String> post(String path) {
        return send(HttpRequest.newBuilder(app.resolve(path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(app.resolve(path)).GET());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofMinutes(1)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(request.build().uri() + " failed: " + e, e);
        }
    }
}
