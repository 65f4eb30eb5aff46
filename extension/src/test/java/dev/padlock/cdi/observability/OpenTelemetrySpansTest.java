package dev.padlock.cdi.observability;

import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.SpansContract;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SpansContract} on Weld: with the OpenTelemetry API on the class path, Padlock traces with the application's
 * {@code OpenTelemetry} bean, here an SDK that hands each span to the exporter as it ends.
 */
class OpenTelemetrySpansTest extends SpansContract {

    @RegisterExtension
    static final OnWeld app = OnWeld.of(APPLICATION.and(Tracing.class));

    public static class Tracing {
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
    }
}
