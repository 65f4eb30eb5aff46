package dev.padlock.quarkus.deployment;

import dev.padlock.contract.SpansContract;
import io.quarkus.test.QuarkusExtensionTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SpansContract} on Quarkus: with {@code quarkus-opentelemetry}, the build tells Padlock to trace acquisitions
 * with the application's OpenTelemetry, which also sends its spans to every {@code SpanExporter} bean.
 */
class OpenTelemetryOnQuarkusTest extends SpansContract {

    @RegisterExtension
    static final QuarkusExtensionTest app = OnQuarkus.of(APPLICATION
            // only the in-memory exporter; nothing listens for OTLP here
            .with("quarkus.otel.exporter.otlp.traces.endpoint", "http://127.0.0.1:1")
            .with("quarkus.otel.exporter.otlp.traces.timeout", "1s")
            .with("quarkus.otel.metrics.enabled", "false")
            .with("quarkus.otel.logs.enabled", "false"));
}
