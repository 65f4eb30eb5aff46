package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.OnFailure;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;

/**
 * With OpenTelemetry, a call made inside a trace gets a span for its lock acquisition, a child of the caller's span,
 * that says which lock, how the acquisition ended and how long it waited, and never the rendered key; Micrometer's
 * meters, present too, still count. The application's {@code OpenTelemetry} is an SDK that exports to
 * {@link Exporter}'s in-memory exporter (a runtime may do so in batches: the scenario flushes before it reads).
 */
public abstract class SpansContract extends Scenario {

    /** Unlike any lock name or type, so an attribute holding a rendered key would show it. */
    public static final String SKU = "sku-4711";

    private static final AttributeKey<String> NAME = AttributeKey.stringKey("padlock.lock.name");
    private static final AttributeKey<String> TYPE = AttributeKey.stringKey("padlock.lock.type");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("padlock.lock.outcome");
    private static final AttributeKey<Long> WAIT_MS = AttributeKey.longKey("padlock.lock.wait_ms");

    /** An owner id no thread of this JVM has: the key is held "by another application". */
    private static final long OTHER_OWNER = -42L;

    public static final ApplicationUnderTest APPLICATION =
            ApplicationUnderTest.of(Stock.class, InCode.class, Exporter.class, ReadableMeterRegistry.class);

    /** Where the application's spans end up, for the scenario to read. */
    public static class Exporter {
        @Produces
        @Singleton
        InMemorySpanExporter exporter() {
            return InMemorySpanExporter.create();
        }
    }

    @ApplicationScoped
    public static class Stock {
        private final AtomicInteger ran = new AtomicInteger();

        public int ran() {
            return ran.get();
        }

        public void reset() {
            ran.set(0);
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

    private Stock stock;
    private InMemorySpanExporter exporter;

    /** Starts each test with no spans and no runs, whatever an earlier test in the same application left. */
    @BeforeEach
    void nothingExportedYet() {
        stock = bean(Stock.class);
        exporter = bean(InMemorySpanExporter.class);
        flush();
        exporter.reset();
        stock.reset();
    }

    @Test
    void aLocksCallsSpanNamesItsLockNeverItsKey() {
        Locks locks = bean(InCode.class).locks();
        Span request = startRequest();
        try (Scope inRequest = request.makeCurrent()) {
            assertThat(locks.on("stock", SKU).get(() -> SKU)).isEqualTo(SKU);
        } finally {
            request.end();
        }

        assertThat(acquisitions()).singleElement().satisfies(span -> {
            assertThat(span.getName()).isEqualTo("padlock.acquire stock");
            assertThat(span.getAttributes().get(NAME)).isEqualTo("stock");
            assertNoKey(span);
        });
    }

    @Test
    void everyCallInsideATraceGetsAnAcquisitionSpanChildOfTheCallersSpan() throws Exception {
        long acquiredBefore = acquired();
        Span request = startRequest();
        try (Scope inRequest = request.makeCurrent()) {
            assertThat(stock.reserve(SKU)).isEqualTo(SKU);
            assertThat(stock.reserveLater(SKU).toCompletableFuture().get(10, TimeUnit.SECONDS))
                    .isEqualTo(SKU);
            assertThat(stock.reserveReactively(SKU).await().atMost(Duration.ofSeconds(10)))
                    .isEqualTo(SKU);
        } finally {
            request.end();
        }

        assertThat(acquisitions()).hasSize(3).allSatisfy(span -> {
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
        assertThat(acquired() - acquiredBefore)
                .as("Micrometer's meters count beside the spans")
                .isEqualTo(3);
    }

    @Test
    void aLockHeldElsewhereGivesNotAcquiredOrSkipped() throws Exception {
        RLock other = redisson().getLock("padlock:stock:" + SKU);
        assertThat(other.tryLockAsync(0, 30_000, TimeUnit.MILLISECONDS, OTHER_OWNER)
                        .get())
                .isTrue();
        Span request = startRequest();
        try (Scope inRequest = request.makeCurrent()) {
            assertThat(catchThrowable(() -> stock.reserveNow(SKU))).isInstanceOf(LockNotAcquiredException.class);
            assertThat(stock.reserveIfFree(SKU)).as("skipped").isNull();
        } finally {
            request.end();
            other.unlockAsync(OTHER_OWNER).get();
        }

        List<SpanData> acquisitions = acquisitions();
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
            assertThat(span.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
            assertThat(span.getParentSpanId())
                    .isEqualTo(request.getSpanContext().getSpanId());
            assertThat(span.getAttributes().get(NAME)).isEqualTo("stock");
            assertThat(span.getAttributes().get(TYPE)).isEqualTo("reentrant");
            assertThat(span.getAttributes().get(WAIT_MS)).isNotNull().isNotNegative();
            assertNoKey(span);
        });
        assertThat(stock.ran()).isZero();
    }

    @Test
    void aCallOutsideAnyTraceStartsNone() throws Exception {
        long acquiredBefore = acquired();

        assertThat(stock.reserve(SKU)).isEqualTo(SKU);
        assertThat(stock.reserveLater(SKU).toCompletableFuture().get(10, TimeUnit.SECONDS))
                .isEqualTo(SKU);

        flush();
        assertThat(exporter.getFinishedSpanItems())
                .as("a lone acquisition span would be a trace of its own")
                .isEmpty();
        assertThat(acquired() - acquiredBefore).isEqualTo(2);
    }

    private Span startRequest() {
        return bean(OpenTelemetry.class)
                .getTracer("test")
                .spanBuilder("request")
                .startSpan();
    }

    /** Hands every ended span to the exporter (a runtime may export in batches). */
    private void flush() {
        OpenTelemetry openTelemetry = bean(OpenTelemetry.class);
        assertThat(openTelemetry).as("the application's OpenTelemetry").isInstanceOf(OpenTelemetrySdk.class);
        ((OpenTelemetrySdk) openTelemetry).getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
    }

    /** Padlock's spans, in the order they ended (the caller's own span left out). */
    private List<SpanData> acquisitions() {
        flush();
        return exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getInstrumentationScopeInfo().getName().equals("dev.padlock"))
                .toList();
    }

    /** Acquisitions of "stock" counted so far (the registry may outlive one test). */
    private long acquired() {
        Timer acquired = bean(SimpleMeterRegistry.class)
                .find("padlock.lock.acquire")
                .tags("lock", "stock", "outcome", "acquired")
                .timer();
        return acquired == null ? 0 : acquired.count();
    }

    private static void assertNoKey(SpanData span) {
        assertThat(span.getName()).doesNotContain(SKU);
        assertThat(span.getAttributes().asMap().values())
                .extracting(String::valueOf)
                .noneMatch(value -> value.contains(SKU) || value.contains("padlock:"));
    }
}
