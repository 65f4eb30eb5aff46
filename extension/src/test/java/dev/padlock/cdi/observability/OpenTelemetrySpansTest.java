package dev.padlock.cdi.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.OnFailure;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * With the OpenTelemetry API on the class path and an {@code OpenTelemetry} bean, a call made inside a trace gets a
 * span for its lock acquisition, a child of the caller's span, that says which lock, how the acquisition ended and how
 * long it waited, and never the rendered key; Micrometer's meters, present too, still count.
 */
@ExtendWith(RedisExtension.class)
class OpenTelemetrySpansTest {

    /** Unlike any lock name or type, so an attribute holding a rendered key would show it. */
    private static final String SKU = "sku-4711";

    private static final AttributeKey<String> NAME = AttributeKey.stringKey("padlock.lock.name");
    private static final AttributeKey<String> TYPE = AttributeKey.stringKey("padlock.lock.type");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("padlock.lock.outcome");
    private static final AttributeKey<Long> WAIT_MS = AttributeKey.longKey("padlock.lock.wait_ms");

    public static class Tracing {
        @Produces
        @Singleton
        InMemorySpanExporter exporter() {
            return InMemorySpanExporter.create();
        }

        @Produces
        @Singleton
        OpenTelemetry openTelemetry(InMemorySpanExporter exporter) {
            return OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder()
                            .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                            .build())
                    .build();
        }

        void close(@Disposes OpenTelemetry openTelemetry) {
            ((OpenTelemetrySdk) openTelemetry).close();
        }

        @Produces
        @Singleton
        SimpleMeterRegistry registry() {
            return new SimpleMeterRegistry();
        }
    }

    @ApplicationScoped
    public static class Stock {
        final AtomicInteger ran = new AtomicInteger();

        public int ran() {
            return ran.get();
        }

        @Locked(value = "stock", key = "{sku}")
        public String reserve(String sku) {
            ran.incrementAndGet();
            return sku;
        }

        @Locked(value = "stock", key = "{sku}")
        public CompletionStage<String> reserveLater(String sku) {
            ran.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> sku);
        }

        @Locked(value = "stock", key = "{sku}")
        public Uni<String> reserveReactively(String sku) {
            ran.incrementAndGet();
            return Uni.createFrom().item(sku);
        }

        @Locked(value = "stock", key = "{sku}", waitTime = "0")
        public String reserveNow(String sku) {
            ran.incrementAndGet();
            return sku;
        }

        @Locked(value = "stock", key = "{sku}", waitTime = "0", onFailure = OnFailure.SKIP)
        public String reserveIfFree(String sku) {
            ran.incrementAndGet();
            return sku;
        }
    }

    @ApplicationScoped
    public static class InCode {
        @Inject
        Locks locks;

        public Locks locks() {
            return locks;
        }
    }

    @Test
    void aLocksCallsSpanNamesItsLockNeverItsKey(RedisServer redis) {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri()), Stock.class, InCode.class, Tracing.class)) {
            Locks locks = app.bean(InCode.class).locks();
            InMemorySpanExporter exporter = app.bean(InMemorySpanExporter.class);
            Span request = app.bean(OpenTelemetry.class)
                    .getTracer("test")
                    .spanBuilder("request")
                    .startSpan();
            try (Scope inRequest = request.makeCurrent()) {
                assertThat(locks.on("stock", SKU).get(() -> SKU)).isEqualTo(SKU);
            } finally {
                request.end();
            }

            assertThat(acquisitions(exporter)).singleElement().satisfies(span -> {
                assertThat(span.getName()).isEqualTo("padlock.acquire stock");
                assertThat(span.getAttributes().get(NAME)).isEqualTo("stock");
                assertNoKey(span);
            });
        }
    }

    @Test
    void everyCallInsideATraceGetsAnAcquisitionSpanChildOfTheCallersSpan(RedisServer redis) throws Exception {
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), Stock.class, Tracing.class)) {
            Stock stock = app.bean(Stock.class);
            InMemorySpanExporter exporter = app.bean(InMemorySpanExporter.class);
            Span request = app.bean(OpenTelemetry.class)
                    .getTracer("test")
                    .spanBuilder("request")
                    .startSpan();
            try (Scope inRequest = request.makeCurrent()) {
                assertThat(stock.reserve(SKU)).isEqualTo(SKU);
                assertThat(stock.reserveLater(SKU).toCompletableFuture().get(10, TimeUnit.SECONDS))
                        .isEqualTo(SKU);
                assertThat(stock.reserveReactively(SKU).await().atMost(Duration.ofSeconds(10)))
                        .isEqualTo(SKU);
            } finally {
                request.end();
            }

            List<SpanData> acquisitions = acquisitions(exporter);
            assertThat(acquisitions).hasSize(3).allSatisfy(span -> {
                assertThat(span.getName()).isEqualTo("padlock.acquire stock");
                assertThat(span.getKind()).isEqualTo(SpanKind.INTERNAL);
                assertThat(span.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
                assertThat(span.getParentSpanId())
                        .isEqualTo(request.getSpanContext().getSpanId());
                assertThat(span.getAttributes().get(NAME)).isEqualTo("stock");
                assertThat(span.getAttributes().get(TYPE)).isEqualTo("reentrant");
                assertThat(span.getAttributes().get(OUTCOME)).isEqualTo("acquired");
                assertThat(span.getAttributes().get(WAIT_MS)).isNotNull().isNotNegative();
                assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
                assertThat(span.hasEnded()).isTrue();
                assertNoKey(span);
            });
            assertThat(stock.ran()).isEqualTo(3);
            assertThat(app.bean(SimpleMeterRegistry.class)
                            .get("padlock.lock.acquire")
                            .tags("lock", "stock", "outcome", "acquired")
                            .timer()
                            .count())
                    .as("Micrometer's meters count beside the spans")
                    .isEqualTo(3);
        }
    }

    @Test
    void aLockHeldElsewhereGivesNotAcquiredOrSkipped(RedisServer redis) throws Exception {
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), Stock.class, Tracing.class)) {
            Stock stock = app.bean(Stock.class);
            InMemorySpanExporter exporter = app.bean(InMemorySpanExporter.class);
            RLock other = app.bean(RedissonClient.class).getLock("padlock:stock:" + SKU);
            // held by another owner id than any thread of this JVM
            assertThat(other.tryLockAsync(0, 30_000, TimeUnit.MILLISECONDS, -42L)
                            .get())
                    .isTrue();
            Span request = app.bean(OpenTelemetry.class)
                    .getTracer("test")
                    .spanBuilder("request")
                    .startSpan();
            try (Scope inRequest = request.makeCurrent()) {
                assertThat(catchThrowable(() -> stock.reserveNow(SKU))).isInstanceOf(LockNotAcquiredException.class);
                assertThat(stock.reserveIfFree(SKU)).as("skipped").isNull();
            } finally {
                request.end();
                other.unlockAsync(-42L).get();
            }

            List<SpanData> acquisitions = acquisitions(exporter);
            assertThat(acquisitions).hasSize(2);
            SpanData notAcquired = acquisitions.get(0);
            assertThat(notAcquired.getAttributes().get(OUTCOME)).isEqualTo("not_acquired");
            assertThat(notAcquired.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(notAcquired.getEvents())
                    .as("no exception event: its message names the key")
                    .isEmpty();
            SpanData skipped = acquisitions.get(1);
            assertThat(skipped.getAttributes().get(OUTCOME)).isEqualTo("skipped");
            assertThat(skipped.getStatus().getStatusCode())
                    .as("SKIP is what the method asked for, not a failure")
                    .isEqualTo(StatusCode.UNSET);
            assertThat(acquisitions).allSatisfy(span -> {
                assertThat(span.getParentSpanId())
                        .isEqualTo(request.getSpanContext().getSpanId());
                assertNoKey(span);
            });
            assertThat(stock.ran()).isZero();
        }
    }

    @Test
    void aCallOutsideAnyTraceStartsNone(RedisServer redis) throws Exception {
        try (Deployment app =
                Deployment.start(Map.of("padlock.redis.address", redis.uri()), Stock.class, Tracing.class)) {
            Stock stock = app.bean(Stock.class);
            InMemorySpanExporter exporter = app.bean(InMemorySpanExporter.class);

            assertThat(stock.reserve(SKU)).isEqualTo(SKU);
            assertThat(stock.reserveLater(SKU).toCompletableFuture().get(10, TimeUnit.SECONDS))
                    .isEqualTo(SKU);

            assertThat(exporter.getFinishedSpanItems())
                    .as("a lone acquisition span would be a trace of its own")
                    .isEmpty();
            assertThat(app.bean(SimpleMeterRegistry.class)
                            .get("padlock.lock.acquire")
                            .tags("lock", "stock", "outcome", "acquired")
                            .timer()
                            .count())
                    .isEqualTo(2);
        }
    }

    /** Padlock's spans, in the order they ended (the caller's own span left out). */
    private static List<SpanData> acquisitions(InMemorySpanExporter exporter) {
        return exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getInstrumentationScopeInfo().getName().equals("dev.padlock"))
                .toList();
    }

    private static void assertNoKey(SpanData span) {
        assertThat(span.getName()).doesNotContain(SKU);
        assertThat(span.getAttributes().asMap().values())
                .extracting(String::valueOf)
                .noneMatch(value -> value.contains(SKU) || value.contains("padlock:"));
    }
}
