package dev.padlock.examples.inventory;

import dev.padlock.Locked;
import dev.padlock.OnFailure;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * A job every instance's scheduler fires, of which one run per occurrence is wanted: it appends a line to the list
 * {@code inventory:snapshots} in Redis ({@code <scheduled second> <instance>}), a stand-in for a snapshot sent to a
 * reporting system. It takes milliseconds, so without a minimum hold an instance whose clock or scheduler is a moment
 * behind would find the lock free again and send the same occurrence twice; with
 * {@code padlock.locks.stock-snapshot.hold-at-least} (see {@code application.properties}) the key stays held that long
 * from the first run's start, and the late instances skip.
 */
@ApplicationScoped
public class StockSnapshotJob {

    static final String SNAPSHOTS = "inventory:snapshots";

    @Inject
    RedissonClient redisson;

    @Inject
    @ConfigProperty(name = "inventory.instance", defaultValue = "inventory")
    String instance;

    @Scheduled(identity = "stock-snapshot", cron = "${inventory.snapshot.cron}")
    @Locked(value = "stock-snapshot", waitTime = "0", onFailure = OnFailure.SKIP)
    void snapshot(ScheduledExecution execution) {
        record(execution);
    }

    /**
     * Test-only: the same job without the lock, for the control run that shows it running on every instance. Its
     * schedule is {@code off} unless the {@code unlocked} profile turns it on (and the locked one off).
     */
    @Scheduled(identity = "stock-snapshot-unlocked", cron = "${inventory.snapshot.unlocked-cron}")
    void snapshotUnlocked(ScheduledExecution execution) {
        record(execution);
    }

    private void record(ScheduledExecution execution) {
        redisson.getList(SNAPSHOTS, StringCodec.INSTANCE)
                .add(execution.getScheduledFireTime().getEpochSecond() + " " + instance);
    }
}
