package dev.padlock.benchmarks;

import dev.padlock.core.config.ConfigKeys;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.redisson.config.Config;

/**
 * How both clients of an {@link Application} reach the suite's Redis: the {@code padlock.redis.*} keys Padlock's own
 * client is built from, and the same topology given by hand to the raw Redisson client, with Redisson's defaults
 * otherwise on both (so on a topology with replicas both wait for a replica after each acquisition:
 * {@code checkLockSyncedSlaves}, default on). A child JVM of the multi-JVM rows gets it as one argument ({@link
 * #encode()}).
 *
 * @param topology what the addresses are
 * @param addresses the server (single), master and replica (replicated) or the sentinels (sentinel)
 * @param masterName the name the sentinels monitor; null unless sentinel
 */
record Connection(Topology.Kind topology, List<String> addresses, String masterName) {

    Connection {
        addresses = List.copyOf(addresses);
    }

    static Connection single(String uri) {
        return new Connection(Topology.Kind.SINGLE, List.of(uri), null);
    }

    /** What the suite puts into Padlock's MicroProfile Config for this topology. */
    Map<String, String> padlockProperties() {
        Map<String, String> properties = new HashMap<>();
        switch (topology) {
            case SINGLE:
                properties.put(ConfigKeys.REDIS_ADDRESS, addresses.get(0));
                break;
            case REPLICATED:
                properties.put(ConfigKeys.REDIS_MODE, "replicated");
                properties.put(ConfigKeys.REDIS_NODES, String.join(",", addresses));
                break;
            case SENTINEL:
                properties.put(ConfigKeys.REDIS_MODE, "sentinel");
                properties.put(ConfigKeys.REDIS_NODES, String.join(",", addresses));
                properties.put(ConfigKeys.REDIS_MASTER_NAME, masterName);
                break;
            default:
                throw new IllegalStateException("no Padlock keys for " + topology);
        }
        return properties;
    }

    /** What Padlock's own client gets from {@link #padlockProperties()}: Redisson's defaults otherwise. */
    Config redissonConfig(Duration watchdog) {
        Config config = new Config();
        String[] nodes = addresses.toArray(new String[0]);
        switch (topology) {
            case SINGLE:
                config.useSingleServer().setAddress(nodes[0]);
                break;
            case REPLICATED:
                config.useReplicatedServers().addNodeAddress(nodes);
                break;
            case SENTINEL:
                config.useSentinelServers().setMasterName(masterName).addSentinelAddress(nodes);
                break;
            default:
                throw new IllegalStateException("no Redisson config for " + topology);
        }
        config.setLockWatchdogTimeout(watchdog.toMillis());
        return config;
    }

    /**
     * One argument for a child JVM: a single server's uri as it is (what children were always given), else
     * {@code replicated:<uri>,<uri>} or {@code sentinel:<master name>:<uri>,<uri>,...}.
     */
    String encode() {
        switch (topology) {
            case SINGLE:
                return addresses.get(0);
            case REPLICATED:
                return "replicated:" + String.join(",", addresses);
            case SENTINEL:
                return "sentinel:" + masterName + ":" + String.join(",", addresses);
            default:
                throw new IllegalStateException("cannot encode " + topology);
        }
    }

    static Connection decode(String text) {
        int colon = text.indexOf(':');
        String scheme = colon < 0 ? "" : text.substring(0, colon).toLowerCase(Locale.ROOT);
        if (scheme.equals("replicated")) {
            return new Connection(
                    Topology.Kind.REPLICATED, List.of(text.substring(colon + 1).split(",")), null);
        }
        if (scheme.equals("sentinel")) {
            String rest = text.substring(colon + 1);
            int nameEnd = rest.indexOf(':');
            return new Connection(
                    Topology.Kind.SENTINEL,
                    List.of(rest.substring(nameEnd + 1).split(",")),
                    rest.substring(0, nameEnd));
        }
        return single(text);
    }
}
