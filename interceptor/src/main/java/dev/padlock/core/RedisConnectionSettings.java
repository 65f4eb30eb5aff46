package dev.padlock.core;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.redisson.config.Config;

/**
 * How to reach Redis, from the {@code padlock.redis.*} keys; the same keys on every runtime. Validated as a
 * whole at deployment. The password is kept out of {@link #toString()} and every message.
 */
public final class RedisConnectionSettings {

    public static final String ADDRESS = "padlock.redis.address";
    public static final String MODE = "padlock.redis.mode";
    public static final String NODES = "padlock.redis.nodes";
    public static final String MASTER_NAME = "padlock.redis.sentinel.master-name";
    public static final String USERNAME = "padlock.redis.username";
    public static final String PASSWORD = "padlock.redis.password";
    public static final String DATABASE = "padlock.redis.database";
    public static final String CONFIG_FILE = "padlock.redis.config-file";
    public static final String WATCHDOG_TIMEOUT = "padlock.watchdog-timeout";

    public static final String DEFAULT_ADDRESS = "redis://127.0.0.1:6379";
    public static final Duration DEFAULT_WATCHDOG_TIMEOUT = Duration.ofSeconds(30);

    private static final List<String> SCHEMES = List.of("redis", "rediss", "valkey", "valkeys");

    /** The topologies Padlock configures itself; anything else goes through {@link #CONFIG_FILE}. */
    public enum Mode {
        SINGLE,
        CLUSTER,
        SENTINEL,
        REPLICATED
    }

    private final Mode mode;
    private final List<String> addresses;
    private final String masterName;
    private final String username;
    private final String password;
    private final Integer database;
    private final String configFile;
    private final Duration watchdogTimeout;

    private RedisConnectionSettings(
            Mode mode,
            List<String> addresses,
            String masterName,
            String username,
            String password,
            Integer database,
            String configFile,
            Duration watchdogTimeout) {
        this.mode = mode;
        this.addresses = addresses;
        this.masterName = masterName;
        this.username = username;
        this.password = password;
        this.database = database;
        this.configFile = configFile;
        this.watchdogTimeout = watchdogTimeout;
    }

    /** Reads and checks every key; each problem names its key and the fix. */
    public static RedisConnectionSettings read(ConfigView config, List<String> problems) {
        Duration watchdog = config.get(WATCHDOG_TIMEOUT)
                .map(v -> {
                    Duration d = PadlockSettings.duration(WATCHDOG_TIMEOUT, v, problems);
                    if (d.toMillis() < 1000) {
                        problems.add("Invalid " + WATCHDOG_TIMEOUT + ": '" + v
                                + "' is under a second; the watchdog renews every third of it. Use 30s (the"
                                + " default) or more than 1s.");
                    }
                    return d;
                })
                .orElse(DEFAULT_WATCHDOG_TIMEOUT);
        Optional<String> file = config.get(CONFIG_FILE);
        if (file.isPresent()) {
            for (String key : List.of(ADDRESS, MODE, NODES, MASTER_NAME, USERNAME, PASSWORD, DATABASE)) {
                if (config.get(key).isPresent()) {
                    problems.add("Invalid " + key + ": " + CONFIG_FILE + " is set too, and a Redisson YAML file"
                            + " describes the whole connection. Put this setting into the file, or remove "
                            + CONFIG_FILE + ".");
                }
            }
            return new RedisConnectionSettings(null, List.of(), null, null, null, null, file.get(), watchdog);
        }

        Mode mode = config.get(MODE).map(v -> mode(v, problems)).orElse(Mode.SINGLE);
        List<String> addresses = new ArrayList<>();
        if (mode == Mode.SINGLE) {
            if (config.get(NODES).isPresent()) {
                problems.add("Invalid " + NODES + ": it lists servers for cluster, sentinel or replicated mode, but "
                        + MODE + " is single. Set " + MODE + ", or use " + ADDRESS + " for one server.");
            }
            String address = config.get(ADDRESS).orElse(DEFAULT_ADDRESS);
            checkAddress(ADDRESS, address, problems);
            addresses.add(address);
        } else {
            if (config.get(ADDRESS).isPresent()) {
                problems.add("Invalid " + ADDRESS + ": " + MODE + " is "
                        + mode.name().toLowerCase(Locale.ROOT) + ", which takes its servers from " + NODES
                        + ". Move the address into " + NODES + ".");
            }
            Optional<String> nodes = config.get(NODES);
            if (nodes.isEmpty()) {
                problems.add(
                        "Missing " + NODES + ": " + MODE + " is " + mode.name().toLowerCase(Locale.ROOT)
                                + ". List the " + (mode == Mode.SENTINEL ? "sentinels" : "servers")
                                + " as redis://host:port, comma-separated.");
            } else {
                for (String node : nodes.get().split(",")) {
                    if (!node.isBlank()) {
                        checkAddress(NODES, node.trim(), problems);
                        addresses.add(node.trim());
                    }
                }
            }
        }
        String masterName = config.get(MASTER_NAME).orElse(null);
        if (mode == Mode.SENTINEL && masterName == null) {
            problems.add("Missing " + MASTER_NAME + ": " + MODE + " is sentinel. Set it to the name the sentinels"
                    + " monitor (sentinel monitor <name> ...), e.g. mymaster.");
        }
        Integer database =
                config.get(DATABASE).map(v -> database(v, mode, problems)).orElse(null);
        return new RedisConnectionSettings(
                mode,
                List.copyOf(addresses),
                masterName,
                config.get(USERNAME).orElse(null),
                config.get(PASSWORD).orElse(null),
                database,
                null,
                watchdog);
    }

    private static Mode mode(String value, List<String> problems) {
        try {
            return Mode.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problems.add("Invalid " + MODE + ": '" + value + "' is not a mode. Use single, cluster, sentinel or"
                    + " replicated, or " + CONFIG_FILE + " for anything else.");
            return Mode.SINGLE;
        }
    }

    private static Integer database(String value, Mode mode, List<String> problems) {
        try {
            int db = Integer.parseInt(value.trim());
            if (db < 0) {
                throw new NumberFormatException();
            }
            if (mode == Mode.CLUSTER && db != 0) {
                problems.add("Invalid " + DATABASE + ": Redis Cluster has only database 0. Remove the setting.");
            }
            return db;
        } catch (NumberFormatException e) {
            problems.add("Invalid " + DATABASE + ": '" + value + "' is not a database number. Use 0 to 15 (or"
                    + " what the server's 'databases' allows).");
            return null;
        }
    }

    private static void checkAddress(String key, String address, List<String> problems) {
        String shown = masked(address);
        try {
            URI uri = new URI(address);
            if (uri.getScheme() == null || !SCHEMES.contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
                problems.add("Invalid " + key + ": '" + shown + "' needs a scheme. Write redis://host:port"
                        + " (rediss:// for TLS; valkey:// and valkeys:// work too).");
            } else if (uri.getHost() == null || uri.getPort() < 0) {
                problems.add("Invalid " + key + ": '" + shown + "' needs a host and a port, as in"
                        + " redis://127.0.0.1:6379.");
            }
        } catch (URISyntaxException e) {
            problems.add("Invalid " + key + ": '" + shown + "' is not an address. Write redis://host:port.");
        }
    }

    /** An address with any user info (which may hold a password) replaced by {@code ***}. */
    public static String masked(String address) {
        int scheme = address.indexOf("://");
        int at = address.lastIndexOf('@');
        if (scheme >= 0 && at > scheme) {
            return address.substring(0, scheme + 3) + "***@" + address.substring(at + 1);
        }
        return address;
    }

    /** The Redisson configuration these settings describe. */
    public Config toRedissonConfig(ClassLoader loader) {
        Config config = configFile != null ? loadFile(loader) : build();
        config.setLockWatchdogTimeout(watchdogTimeout.toMillis());
        return config;
    }

    private Config build() {
        Config config = new Config();
        if (username != null) {
            config.setUsername(username);
        }
        if (password != null) {
            config.setPassword(password);
        }
        switch (mode) {
            case CLUSTER:
                config.useClusterServers().addNodeAddress(addresses.toArray(new String[0]));
                break;
            case SENTINEL:
                var sentinel = config.useSentinelServers()
                        .setMasterName(masterName)
                        .addSentinelAddress(addresses.toArray(new String[0]));
                if (database != null) {
                    sentinel.setDatabase(database);
                }
                break;
            case REPLICATED:
                var replicated = config.useReplicatedServers().addNodeAddress(addresses.toArray(new String[0]));
                if (database != null) {
                    replicated.setDatabase(database);
                }
                break;
            case SINGLE:
            default:
                var single = config.useSingleServer().setAddress(addresses.get(0));
                if (database != null) {
                    single.setDatabase(database);
                }
        }
        return config;
    }

    private Config loadFile(ClassLoader loader) {
        File file = new File(configFile);
        try {
            if (file.isFile()) {
                return Config.fromYAML(file);
            }
            try (InputStream in = loader.getResourceAsStream(configFile)) {
                if (in == null) {
                    throw new IllegalStateException("Invalid " + CONFIG_FILE + ": '" + configFile
                            + "' is neither a file nor a class-path resource. Give a path or a resource name.");
                }
                return Config.fromYAML(in);
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof IllegalStateException && e.getMessage().startsWith("Invalid")) {
                throw (IllegalStateException) e;
            }
            throw new IllegalStateException(
                    "Invalid " + CONFIG_FILE + ": '" + configFile + "' is not a Redisson YAML configuration ("
                            + e.getMessage() + ").",
                    e);
        }
    }

    /** Checks what can only be checked by reading the file; a problem names the key. */
    public void checkConfigFile(ClassLoader loader, List<String> problems) {
        if (configFile != null) {
            try {
                loadFile(loader);
            } catch (IllegalStateException e) {
                problems.add(e.getMessage());
            }
        }
    }

    /** Where Padlock connects, for a log line; never the password. */
    public String describe() {
        if (configFile != null) {
            return "Redisson configuration " + configFile;
        }
        StringBuilder s = new StringBuilder(mode.name().toLowerCase(Locale.ROOT)).append(' ');
        s.append(addresses.stream().map(RedisConnectionSettings::masked).toList());
        if (masterName != null) {
            s.append(" master ").append(masterName);
        }
        if (database != null) {
            s.append(" database ").append(database);
        }
        if (username != null) {
            s.append(" user ").append(username);
        }
        if (password != null) {
            s.append(" (password set)");
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return "RedisConnectionSettings[" + describe() + ", watchdog " + DurationText.format(watchdogTimeout) + "]";
    }
}
