package dev.padlock.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.examples.load.ReservationRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The control for {@link TwoInstancesIT}: the same packaged application and the same load, started with the
 * test-only profile {@code unlocked}, in which reservations bypass {@code @Locked}. More reservations are confirmed
 * than there was stock: the read-modify-write really races, so the exact count in {@link TwoInstancesIT} is the
 * lock's doing.
 */
class UnlockedControlIT {

    static TwoInstances instances;

    @BeforeAll
    static void start() {
        instances = TwoInstances.start("unlocked", Map.of("quarkus.profile", "unlocked"));
    }

    @AfterAll
    static void stop() {
        if (instances != null) {
            instances.close();
        }
    }

    @Test
    void withoutTheLockEverySnapshotRunsOnBothInstances() throws InterruptedException {
        Map<Long, List<String>> runs = instances.snapshotRuns(3);
        assertThat(runs)
                .as("by occurrence, the instances that ran the snapshot")
                .allSatisfy((occurrence, ran) -> assertThat(ran).containsExactlyInAnyOrder("unlocked-1", "unlocked-2"));
    }

    @Test
    void withoutTheLockTheSameLoadOversells() {
        String sku = "apple";
        instances.client.restock(instances.uris().get(0), sku, TwoInstancesIT.STOCK);

        ReservationRun run = instances.client.reserveConcurrently(
                instances.uris(), sku, TwoInstancesIT.REQUESTS, TwoInstancesIT.CLIENT_THREADS);

        int left = instances.storedLevel(sku);
        assertThat(run.reserved()).as("confirmed reservations; %s", run).isGreaterThan(TwoInstancesIT.STOCK);
        assertThat(run.oversold(TwoInstancesIT.STOCK, left)).as("oversold").isPositive();
        System.out.printf(
                "Unlocked control: %s; %d left in stock, %d oversold%n",
                run, left, run.oversold(TwoInstancesIT.STOCK, left));
    }
}
