package dev.padlock.contract;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * A {@code SimpleMeterRegistry} bean the scenarios read meters from. On a CDI container it is the registry Padlock
 * counts in; on Quarkus, quarkus-micrometer adds it to the registry Padlock is given.
 */
public class ReadableMeterRegistry {
    @Produces
    @Singleton
    SimpleMeterRegistry registry() {
        return new SimpleMeterRegistry();
    }
}
