package dev.padlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.testing.RedisCluster;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** The script touches only its own key and is routed by it: on a cluster, keys of every master take and refuse tokens. */
@ExtendWith(RedisExtension.class)
class RedisFenceClusterTest {

    @Test
    void keysOnEveryMasterTakeNewerTokensAndRefuseOlderOnes(RedisCluster cluster) {
        Config config = new Config();
        config.useClusterServers().setNodeAddresses(cluster.nodeUris());
        RedissonClient redisson = Redisson.create(config);
        try {
            RedisFence fence = RedisFence.on(redisson);
            List<String> keys = List.of("price:a", "price:b", "price:c", "price:d", "price:e", "price:f");
            for (String key : keys) {
                fence.set(key, "newer", 20);
                assertThatThrownBy(() -> fence.set(key, "older", 10)).isInstanceOf(StaleTokenException.class);
                assertThat(fence.get(key)).contains(new FencedValue("newer", 20));
            }

            // KEYS lists a node's own keys only (a keyed command would answer MOVED for the others' slots).
            Set<RedisServer> holding = new HashSet<>();
            for (RedisServer master : cluster.masters()) {
                if (!((List<?>) master.command("KEYS", "price:*")).isEmpty()) {
                    holding.add(master);
                }
            }
            assertThat(holding).as("masters holding the keys").hasSameSizeAs(cluster.masters());
        } finally {
            redisson.shutdown();
        }
    }
}
