package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.redisserver.Info;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
class RedisSentinelTest {

    @Test
    void everySentinelReportsTheMasterAddressOfMymaster(RedisSentinel sentinel) {
        assertThat(sentinel.masterName()).isEqualTo("mymaster");
        assertThat(sentinel.sentinels()).hasSize(3);
        assertThat(sentinel.sentinelUris()).hasSize(3).doesNotHaveDuplicates();

        for (RedisServer node : sentinel.sentinels()) {
            assertThat(node.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"))
                    .isEqualTo(List.of(
                            "127.0.0.1", String.valueOf(sentinel.master().port())));
        }
    }

    @Test
    void everySentinelSeesTheReplicaAndTheTwoOtherSentinels(RedisSentinel sentinel) {
        for (RedisServer node : sentinel.sentinels()) {
            assertThat((List<?>) node.command("SENTINEL", "REPLICAS", "mymaster"))
                    .hasSize(1);
            assertThat((List<?>) node.command("SENTINEL", "SENTINELS", "mymaster"))
                    .hasSize(2);
        }
    }

    @Test
    void replicaFollowsTheMaster(RedisSentinel sentinel) {
        Map<String, String> replication = Info.fields(sentinel.replica().command("INFO", "replication"));

        assertThat(replication)
                .containsEntry("role", "slave")
                .containsEntry("master_port", String.valueOf(sentinel.master().port()))
                .containsEntry("master_link_status", "up");
    }
}
