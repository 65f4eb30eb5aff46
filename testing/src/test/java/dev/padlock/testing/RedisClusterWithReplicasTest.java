package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.redisserver.Info;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
@ClusterNodes(replicasPerMaster = 1)
class RedisClusterWithReplicasTest {

    @Test
    void oneReplicaIsAttachedToEachOfTheThreeMasters(@ClusterNodes(replicasPerMaster = 1) RedisCluster cluster) {
        assertThat(cluster.masters()).hasSize(3);
        assertThat(cluster.replicas()).hasSize(3);
        List<String> expectedUris = new ArrayList<>();
        cluster.masters().forEach(master -> expectedUris.add(master.uri()));
        cluster.replicas().forEach(replica -> expectedUris.add(replica.uri()));
        assertThat(cluster.nodeUris()).containsExactlyElementsOf(expectedUris);

        for (RedisServer master : cluster.masters()) {
            assertThat(Info.fields(master.command("INFO", "replication")))
                    .containsEntry("role", "master")
                    .containsEntry("connected_slaves", "1");
        }
        for (RedisServer replica : cluster.replicas()) {
            Map<String, String> replication = Info.fields(replica.command("INFO", "replication"));
            assertThat(replication).containsEntry("role", "slave").containsEntry("master_link_status", "up");
            assertThat(Integer.parseInt(replication.get("master_port")))
                    .isIn(cluster.masters().stream().map(RedisServer::port).toArray());
        }
        String nodes = (String) cluster.masters().get(0).command("CLUSTER", "NODES");
        assertThat(nodes.lines().filter(line -> line.split(" ")[2].contains("slave")))
                .hasSize(3);
        assertThat(Info.fields(cluster.replicas().get(0).command("CLUSTER", "INFO")))
                .containsEntry("cluster_state", "ok")
                .containsEntry("cluster_slots_ok", "16384")
                .containsEntry("cluster_known_nodes", "6");
    }

    @Test
    void shapeOnTheClassAndOnTheParameterGiveTheSameCluster(
            RedisCluster fromClass, @ClusterNodes(replicasPerMaster = 1) RedisCluster fromParameter) {
        assertThat(fromClass).isSameAs(fromParameter);
        assertThat(fromClass.replicas()).hasSize(3);
    }
}
