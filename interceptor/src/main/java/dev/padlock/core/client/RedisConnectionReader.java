package dev.padlock.core.client;

import static dev.padlock.core.config.ConfigKeys.REDIS_ADDRESS;
import static dev.padlock.core.config.ConfigKeys.REDIS_CONFIG_FILE;
import static dev.padlock.core.config.ConfigKeys.REDIS_DATABASE;
import static dev.padlock.core.config.ConfigKeys.REDIS_MASTER_NAME;
import static dev.padlock.core.config.ConfigKeys.REDIS_MODE;
import static dev.padlock.core.config.ConfigKeys.REDIS_NODES;
import static dev.padlock.core.config.ConfigKeys.REDIS_REPLICA_CONFIRMATION;
import static dev.padlock.core.config.ConfigKeys.REDIS_REPLICA_TIMEOUT;
import static dev.padlock.core.config.ConfigKeys.WATCHDOG_TIMEOUT;

import dev.padlock.core.client.RedisConnectionSettings.Credentials;
import dev.padlock.core.client.RedisConnectionSettings.Mode;
import dev.padlock.core.client.RedisConnectionSettings.Replicas;
import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.EnumSetting;
import dev.padlock.core.config.Problems;
import dev.padlock.core.config.SettingValues;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** Reads the {@code padlock.redis.*} keys into {@link RedisConnectionSettings}, reporting every mistake at once. */
public final class RedisConnectionReader {

    private static final EnumSetting<Mode> MODES =
            new EnumSetting<>(Mode.class, "a mode", ", or " + REDIS_CONFIG_FILE + " for anything else");

    private static final List<String> SCHEMES = List.of("redis", "rediss", "valkey", "valkeys");

    /** Host names as Docker and DNS zones write them, '_' included (java.net.URI refuses that). */
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*\\.?");

    private RedisConnectionReader() {}

    public static RedisConnectionSettings read(ConfigView config, Problems problems) {
        Duration watchdog = config.get(WATCHDOG_TIMEOUT)
                .map(v -> watchdogTimeout(v, problems))
                .orElse(null);
        Replicas replicas = readReplicas(config, problems);
        Optional<String> file = config.get(REDIS_CONFIG_FILE);
        if (file.isPresent()) {
            return readFile(config, file.get(), watchdog, replicas, problems);
        }
        Mode mode = config.get(REDIS_MODE)
                .map(v -> MODES.read(REDIS_MODE, v, Mode.SINGLE, problems))
                .orElse(Mode.SINGLE);
        List<String> addresses = mode == Mode.SINGLE ? readSingle(config, problems) : readNodes(config, mode, problems);
        String masterName = config.get(REDIS_MASTER_NAME).orElse(null);
        if (mode == Mode.SENTINEL && masterName == null) {
            problems.missingKey(
                    REDIS_MASTER_NAME,
                    REDIS_MODE + " is sentinel",
                    "Set it to the name the sentinels monitor (sentinel monitor <name> ...), e.g. mymaster");
        }
        Integer database =
                config.get(REDIS_DATABASE).map(v -> database(v, mode, problems)).orElse(null);
        Credentials credentials = new Credentials(
                config.get(ConfigKeys.REDIS_USERNAME).orElse(null),
                config.get(ConfigKeys.REDIS_PASSWORD).orElse(null));
        return RedisConnectionSettings.servers(mode, addresses, masterName, credentials, database, watchdog, replicas);
    }

    private static Replicas readReplicas(ConfigView config, Problems problems) {
        Boolean confirm = config.get(REDIS_REPLICA_CONFIRMATION)
                .map(v -> switch (v.trim().toLowerCase(Locale.ROOT)) {
                    case "true" -> Boolean.TRUE;
                    case "false" -> Boolean.FALSE;
                    default -> {
                        problems.invalidKey(
                                REDIS_REPLICA_CONFIRMATION,
                                "'" + v + "' is neither true nor false",
                                "Use true (the default: a renewal counts only once a replica confirmed it) or false"
                                        + " (the master's answer is enough, and a failover may shorten a lease)");
                        yield null;
                    }
                })
                .orElse(null);
        Duration timeout = config.get(REDIS_REPLICA_TIMEOUT)
                .map(v -> {
                    Duration d =
                            SettingValues.duration(REDIS_REPLICA_TIMEOUT, v, Replicas.DEFAULT_TIMEOUT, null, problems);
                    if (d.toMillis() < 1 || d.compareTo(Duration.ofMinutes(1)) > 0) {
                        problems.invalidKey(
                                REDIS_REPLICA_TIMEOUT,
                                "'" + v + "' is not between 1ms and 1m; every confirmed acquisition and renewal may"
                                        + " wait this long for a replica",
                                "Use 1s (the default), or the time your replicas need to acknowledge a write");
                        return null;
                    }
                    return d;
                })
                .orElse(null);
        return new Replicas(confirm, timeout);
    }

    private static Duration watchdogTimeout(String value, Problems problems) {
        Duration d = SettingValues.duration(
                WATCHDOG_TIMEOUT, value, RedisConnectionSettings.DEFAULT_WATCHDOG_TIMEOUT, null, problems);
        if (d.compareTo(RedisConnectionSettings.MIN_WATCHDOG_TIMEOUT) < 0) {
            problems.invalidKey(
                    WATCHDOG_TIMEOUT,
                    "'" + value + "' is under a second; the watchdog renews every third of it",
                    "Use 30s (the default), or 1s or more");
        }
        return d;
    }

    /** A Redisson YAML file describes the whole connection, so no other connection key may be set beside it. */
    private static RedisConnectionSettings readFile(
            ConfigView config, String file, Duration watchdog, Replicas replicas, Problems problems) {
        for (String key : ConfigKeys.REDIS_CONNECTION) {
            if (config.get(key).isPresent()) {
                problems.invalidKey(
                        key,
                        REDIS_CONFIG_FILE + " is set too, and a Redisson YAML file describes the whole connection",
                        "Put this setting into the file, or remove " + REDIS_CONFIG_FILE);
            }
        }
        return RedisConnectionSettings.fromFile(file, watchdog, replicas);
    }

    private static List<String> readSingle(ConfigView config, Problems problems) {
        if (config.get(REDIS_NODES).isPresent()) {
            problems.invalidKey(
                    REDIS_NODES,
                    "it lists servers for cluster, sentinel or replicated mode, but " + REDIS_MODE + " is single",
                    "Set " + REDIS_MODE + ", or use " + REDIS_ADDRESS + " for one server");
        }
        String address = config.get(REDIS_ADDRESS).orElse(RedisConnectionSettings.DEFAULT_ADDRESS);
        checkAddress(REDIS_ADDRESS, address, problems);
        return List.of(address);
    }

    private static List<String> readNodes(ConfigView config, Mode mode, Problems problems) {
        String modeName = mode.name().toLowerCase(Locale.ROOT);
        if (config.get(REDIS_ADDRESS).isPresent()) {
            problems.invalidKey(
                    REDIS_ADDRESS,
                    REDIS_MODE + " is " + modeName + ", which takes its servers from " + REDIS_NODES,
                    "Move the address into " + REDIS_NODES);
        }
        Optional<String> nodes = config.get(REDIS_NODES);
        if (nodes.isEmpty()) {
            problems.missingKey(
                    REDIS_NODES,
                    REDIS_MODE + " is " + modeName,
                    "List the " + (mode == Mode.SENTINEL ? "sentinels" : "servers")
                            + " as redis://host:port, comma-separated");
            return List.of();
        }
        List<String> addresses = new ArrayList<>();
        for (String node : nodes.get().split(",")) {
            if (!node.isBlank()) {
                checkAddress(REDIS_NODES, node.trim(), problems);
                addresses.add(node.trim());
            }
        }
        return addresses;
    }

    private static Integer database(String value, Mode mode, Problems problems) {
        int db;
        try {
            db = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            db = -1;
        }
        if (db < 0) {
            problems.invalidKey(
                    REDIS_DATABASE,
                    "'" + value + "' is not a database number",
                    "Use 0 to 15 (or what the server's 'databases' allows)");
            return null;
        }
        if (mode == Mode.CLUSTER && db != 0) {
            problems.invalidKey(REDIS_DATABASE, "Redis Cluster has only database 0", "Remove the setting");
        }
        return db;
    }

    private static void checkAddress(String key, String address, Problems problems) {
        String shown = "'" + Secrets.maskedAddress(address) + "'";
        URI uri;
        try {
            uri = new URI(address);
        } catch (URISyntaxException e) {
            problems.invalidKey(key, shown + " is not an address", "Write redis://host:port");
            return;
        }
        if (uri.getScheme() == null || !SCHEMES.contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
            problems.invalidKey(
                    key,
                    shown + " needs a scheme",
                    "Write redis://host:port (rediss:// for TLS; valkey:// and valkeys:// work too)");
        } else if (!hasHostAndPort(uri)) {
            problems.invalidKey(key, shown + " needs a host and a port, as in redis://127.0.0.1:6379", null);
        }
    }

    private static boolean hasHostAndPort(URI uri) {
        if (uri.getHost() != null) {
            return uri.getPort() >= 0 && uri.getPort() <= 65535;
        }
        // A name with '_' (a Docker Compose service such as redis_master) is no RFC 2396 host, so URI leaves the
        // host null and keeps the whole authority; Redisson parses such names, so read host and port here.
        String authority = uri.getRawAuthority();
        if (authority == null) {
            return false;
        }
        String hostAndPort = authority.substring(authority.lastIndexOf('@') + 1);
        int colon = hostAndPort.lastIndexOf(':');
        if (colon < 0) {
            return false;
        }
        String port = hostAndPort.substring(colon + 1);
        return HOST_NAME.matcher(hostAndPort.substring(0, colon)).matches()
                && port.matches("[0-9]{1,5}")
                && Integer.parseInt(port) <= 65535;
    }
}
