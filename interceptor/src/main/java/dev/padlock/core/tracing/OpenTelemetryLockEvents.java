package dev.padlock.core.tracing;

import dev.padlock.LockLost;
import dev.padlock.LockType;
import dev.padlock.core.events.LockEvents;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One span per lock acquisition, so that a trace shows where a request waited for a lock: {@code padlock.acquire
 * <lock name>}, kind INTERNAL, a child of the span current on the caller's thread when the call starts to acquire,
 * ended when the acquisition ends (maybe on Redisson's threads). Attributes:
 *
 * <ul>
 *   <li>{@code padlock.lock.name}: the lock name ({@code @Locked.value} or {@code <declaring.Class>#<method>})
 *   <li>{@code padlock.lock.type}: {@code reentrant}, {@code fair}, ..., after per-lock config
 *   <li>{@code padlock.lock.outcome}: {@code acquired}, {@code not_acquired}, {@code skipped}, {@code interrupted},
 *       {@code error}, {@code refused} (the values of the {@code padlock.lock.acquire} timer's {@code outcome} tag)
 *   <li>{@code padlock.lock.wait_ms}: the wait the timer records, in milliseconds
 * </ul>
 *
 * <p>Never the rendered key, nor the exception (whose message names the key): a key takes one value per argument and
 * may be user data, which a trace backend keeps and shows to whoever reads traces.
 *
 * <p>No span for a call outside any trace (no valid current span): a lone acquisition span would be a trace of its
 * own, one per call, with nothing to say where the wait belongs. Such a call costs one look at the current context.
 */
public final class OpenTelemetryLockEvents implements LockEvents {

    static final AttributeKey<String> LOCK_NAME = AttributeKey.stringKey("padlock.lock.name");
    static final AttributeKey<String> LOCK_TYPE = AttributeKey.stringKey("padlock.lock.type");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("padlock.lock.outcome");
    static final AttributeKey<Long> WAIT_MS = AttributeKey.longKey("padlock.lock.wait_ms");

    /** The instrumentation scope Padlock's spans carry. */
    static final String SCOPE = "dev.padlock";

    private final Tracer tracer;

    public OpenTelemetryLockEvents(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer(SCOPE);
    }

    @Override
    public Meter meter(String lockName, LockType type) {
        return new AcquisitionSpans(
                tracer, "padlock.acquire " + lockName, Attributes.of(LOCK_NAME, lockName, LOCK_TYPE, value(type)));
    }

    private static String value(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** One method's spans: its name and fixed attributes built once, so a call only starts and ends its span. */
    private static final class AcquisitionSpans implements Meter {

        private final Tracer tracer;
        private final String spanName;
        private final Attributes lock;

        AcquisitionSpans(Tracer tracer, String spanName, Attributes lock) {
            this.tracer = tracer;
            this.spanName = spanName;
            this.lock = lock;
        }

        @Override
        public Object acquiring() {
            Context caller = Context.current();
            if (!Span.fromContext(caller).getSpanContext().isValid()) {
                return null;
            }
            return tracer.spanBuilder(spanName)
                    .setParent(caller)
                    .setSpanKind(SpanKind.INTERNAL)
                    .setAllAttributes(lock)
                    .startSpan();
        }

        @Override
        public void acquired(Outcome outcome, long waitNanos, Object acquiring) {
            if (!(acquiring instanceof Span span)) {
                return;
            }
            span.setAttribute(OUTCOME, value(outcome));
            span.setAttribute(WAIT_MS, TimeUnit.NANOSECONDS.toMillis(waitNanos));
            switch (outcome) {
                // the method does not run and its caller gets an exception: the span says why, without the key
                case NOT_ACQUIRED -> span.setStatus(StatusCode.ERROR, "the lock was not free within its wait time");
                case INTERRUPTED -> span.setStatus(StatusCode.ERROR, "the calling thread was interrupted");
                case ERROR -> span.setStatus(StatusCode.ERROR, "Redis could not be asked, or did not answer in time");
                case REFUSED ->
                    span.setStatus(StatusCode.ERROR, "the call cannot be locked as made (a nested call refused)");
                // SKIPPED is what the method asked for (onFailure = SKIP), not a failure
                case ACQUIRED, SKIPPED -> {}
            }
            span.end();
        }

        @Override
        public void released(long heldNanos) {}

        @Override
        public void lost(LockLost.Detection detection) {}

        @Override
        public void renewed() {}

        @Override
        public void renewalFailed() {}

        @Override
        public void queued() {}

        @Override
        public void dequeued() {}
    }
}
