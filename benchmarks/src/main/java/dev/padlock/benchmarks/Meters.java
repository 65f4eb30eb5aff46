package dev.padlock.benchmarks;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/**
 * The {@code MeterRegistry} bean of a {@code --metrics} run: with it, Padlock's extension records every call's
 * meters, as an application with Micrometer would. A {@link SimpleMeterRegistry} keeps cumulative values in memory,
 * what a Prometheus registry also does between scrapes.
 */
@ApplicationScoped
public class Meters {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Produces
    @ApplicationScoped
    MeterRegistry registry() {
        return registry;
    }

    /** Acquisitions counted by {@code padlock.lock.acquire}, every outcome. */
    long acquisitions() {
        return registry.find("padlock.lock.acquire").timers().stream()
                .mapToLong(Timer::count)
                .sum();
    }
}
