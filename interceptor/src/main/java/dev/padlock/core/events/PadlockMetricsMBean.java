package dev.padlock.core.events;

/**
 * Padlock's counters over JMX, as {@code dev.padlock:type=Padlock,name=<application>}: visible in any JMX
 * console, and to Micrometer or Prometheus JMX exporters.
 */
public interface PadlockMetricsMBean {

    /** Locks lost, or not confirmed held, while their methods ran (each also a {@code LockLost} event). */
    long getLocksLost();

    /** Lease renewals that could not reach Redis (a renewal retries every third of the lease). */
    long getRenewalFailures();
}
