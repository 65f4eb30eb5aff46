package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.redisserver.Info;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
class RedisClusterTest {

    @Test
    void threeMastersComeUpWithAllSlotsAssignedAndStateOk(RedisCluster cluster) {
        assertThat(cluster.masters()).hasSize(3);
        assertThat(cluster.replicas()).isEmpty();
        assertThat(cluster.nodeUris()).hasSize(3).doesNotHaveDuplicates();

        for (RedisServer master : cluster.masters()) {
            Map<String, String> info = Info.fields(master.command("CLUSTER", "INFO"));
            assertThat(info)
                    .containsEntry("cluster_state", "ok")
                    .containsEntry("cluster_slots_assigned", "16384")
                    .containsEntry("cluster_slots_ok", "16384")
                    .containsEntry("cluster_known_nodes", "3")
                    .containsEntry("cluster_size", "3");
        }
    }

    @Test
    void slotsAreSpreadEvenlyOverTheMasters(RedisCluster cluster) {
        for (RedisServer master : cluster.masters()) {
            String myself = ((String) master.command("CLUSTER", "NODES"))
                    .lines()
                    .filter(line -> line.contains("myself"))
                    .findFirst()
                    .orElseThrow();
            long ownedSlots = Arrays.stream(myself.split(" "))
                    .skip(8)
                    .mapToLong(RedisClusterTest::slotCount)
                    .sum();

            assertThat(ownedSlots).isBetween(5461L, 5462L);
        }
    }

    private static long slotCount(String range) {
        String[] bounds = range.split("-");
        return bounds.length == 1 ? 1 : Long.parseLong(bounds[1]) - Long.parseLong(bounds[0]) + 1;
    }
}
