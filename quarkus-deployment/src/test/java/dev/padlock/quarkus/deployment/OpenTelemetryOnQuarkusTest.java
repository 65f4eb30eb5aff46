package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.OnFailure;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * With {@code quarkus-opentelemetry}, the build tells Padlock to trace acquisitions with the application's
 * OpenTelemetry: a call inside a trace gets a {@code padlock.acquire <lock>} span, child of the caller's span, with the
 * lock name, type, outcome and wait, never the rendered key.
 */
class OpenTelemetryOnQuarkusTest {

    private static final String SKU = "sku-4711";

    private static final AttributeKey<String> NAME = AttributeKey.stringKey("padlock.lock.name");
    private static final AttributeKey<String> TYPE = AttributeKey.stringKey("padlock.lock.type");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("padlock.lock.outcome");
    private static final AttributeKey<Long> WAIT_MS = AttributeKey.longKey("padlock.lock.wait_ms");

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Stock.class, Exporter.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            // only the in-memory exporter below; nothing listens for OTLP here
            .overrideConfigKey("quarkus.otel.exporter.otlp.traces.endpoint", "http://127.0.0.1:1")
            .overrideConfigKey("quarkus.otel.exporter.otlp.traces.timeout", "1s")
            // spans are exported in batches: a short delay keeps the test short, the loop below does not time it
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "100ms")
            .overrideConfigKey("quarkus.otel.metrics.enabled", "false")
            .overrideConfigKey("quarkus.otel.logs.enabled", "false");

    /** quarkus-opentelemetry sends its spans to every {@code SpanExporter} bean as well. */
    public static class Exporter {
        @Produces
        @Singleton
        InMemorySpanExporter exporter() {
            return InMemorySpanExporter.create();
        }
    }

    @ApplicationScoped
    public static class Stock {
        @Locked(value = "q-traced", key = "{sku}")
        public String reserve(String sku) {
            return sku;
        }

        @Locked(value = "q-traced", key = "{sku}")
        public CompletionStage<String> reserveLater(String sku) {
            return CompletableFuture.supplyAsync(() -> sku);
        }

        @Locked(value = "q-traced", key = "{sku}", waitTime = "0", onFailure = OnFailure.SKIP)
        public String reserveIfFree(String sku) {
            return sku;
        }
    }

    @Inject
    Stock stock;

    @Inject
    Tracer tracer;

    @Inject
    InMemorySpanExporter exporter;

    @Inject
    RedissonClient redisson;

    @Test
    void acquisitionsInsideATraceAreChildSpansOfTheCaller() throws Exception {
        Span request = tracer.spanBuilder("request").startSpan();
        RLock other = redisson.getLock("padlock:q-traced:" + SKU);
        try (Scope inRequest = request.makeCurrent()) {
            assertThat(stock.reserve(SKU)).isEqualTo(SKU);
            assertThat(stock.reserveLater(SKU).toCompletableFuture().get(10, TimeUnit.SECONDS))
                    .isEqualTo(SKU);
            // held by another owner id than any thread of this JVM
            assertThat(other.tryLockAsync(0, 30_000, TimeUnit.MILLISECONDS, -42L)
                            .get())
                    .isTrue();
            assertThat(stock.reserveIfFree(SKU)).isNull();
        } finally {
            other.unlockAsync(-42L).get();
            request.end();
        }

        List<SpanData> acquisitions = awaitAcquisitions(3);
        assertThat(acquisitions)
                .extracting(span -> span.getAttributes().get(OUTCOME))
                .containsExactlyInAnyOrder("acquired", "acquired", "skipped");
        assertThat(acquisitions).allSatisfy(span -> {
            assertThat(span.getName()).isEqualTo("padlock.acquire q-traced");
            assertThat(span.getKind()).isEqualTo(SpanKind.INTERNAL);
            assertThat(span.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
            assertThat(span.getParentSpanId())
                    .isEqualTo(request.getSpanContext().getSpanId());
            assertThat(span.getAttributes().get(NAME)).isEqualTo("q-traced");
            assertThat(span.getAttributes().get(TYPE)).isEqualTo("reentrant");
            assertThat(span.getAttributes().get(WAIT_MS)).isNotNull().isNotNegative();
            assertThat(span.getAttributes().asMap().values())
                    .extracting(String::valueOf)
                    .noneMatch(value -> value.contains(SKU) || value.contains("padlock:"));
        });
    }

    /** Padlock's spans, once the exporter has them (it may get them in batches). */
    private List<SpanData> awaitAcquisitions(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<SpanData> found = List.of();
        while (System.nanoTime() < deadline) {
            found = exporter.getFinishedSpanItems().stream()
                    .filter(span -> span.getInstrumentationScopeInfo().getName().equals("dev.padlock"))
                    .toList();
            if (found.size() >= expected) {
                break;
            }
            Thread.sleep(50);
        }
        return found;
    }
}
