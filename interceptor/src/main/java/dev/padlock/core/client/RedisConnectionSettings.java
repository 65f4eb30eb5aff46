package dev.padlock.core.client;

import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.DurationText;
import dev.padlock.core.config.PadlockSettings;
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
import java.util.regex.Pattern;
import org.redisson.config.Config;
import org.yaml.snakeyaml.constructor.ConstructorException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

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
    /**
     * The lease of watchdog-mode locks, 1 s to 10 years. When set it wins over a {@link #CONFIG_FILE}'s
     * {@code lockWatchdogTimeout}; unset, the file's value applies (checked alike), else
     * {@link #DEFAULT_WATCHDOG_TIMEOUT}. Moot, like every key here, when the application has its own client.
     */
    public static final String WATCHDOG_TIMEOUT = "padlock.watchdog-timeout";

    public static final String DEFAULT_ADDRESS = "redis://127.0.0.1:6379";
    public static final Duration DEFAULT_WATCHDOG_TIMEOUT = Duration.ofSeconds(30);

    /**
     * The shortest watchdog timeout. Padlock renews a watchdog-mode lock every third of it, and the first renewal
     * may come up to two thirds in; below a second that leaves a few hundred milliseconds for a renewal round
     * trip, a GC pause or a failover hiccup before the lock lapses under a running method, which is no margin.
     */
    static final Duration MIN_WATCHDOG_TIMEOUT = Duration.ofSeconds(1);

    /** The keys that describe Padlock's own client; an application's own client makes them all moot. */
    private static final List<String> CLIENT_KEYS =
            List.of(ADDRESS, MODE, NODES, MASTER_NAME, USERNAME, PASSWORD, DATABASE, CONFIG_FILE, WATCHDOG_TIMEOUT);

    private static final List<String> SCHEMES = List.of("redis", "rediss", "valkey", "valkeys");

    /** Host names as Docker and DNS zones write them, '_' included (java.net.URI refuses that). */
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*\\.?");

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
    /** {@code padlock.watchdog-timeout} when set, else {@code null}: see {@link #toRedissonConfig}. */
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
                    if (d.compareTo(MIN_WATCHDOG_TIMEOUT) < 0) {
                        problems.add("Invalid " + WATCHDOG_TIMEOUT + ": '" + v
                                + "' is under a second; the watchdog renews every third of it. Use 30s (the"
                                + " default), or 1s or more.");
                    }
                    return d;
                })
                .orElse(null);
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
            } else if (!hasHostAndPort(uri)) {
                problems.add("Invalid " + key + ": '" + shown + "' needs a host and a port, as in"
                        + " redis://127.0.0.1:6379.");
            }
        } catch (URISyntaxException e) {
            problems.add("Invalid " + key + ": '" + shown + "' is not an address. Write redis://host:port.");
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

    /**
     * An address with any user info (which may hold a password) replaced by {@code ***}, also when the scheme is
     * missing ({@code user:pw@host:6379} is a typo this message exists to report).
     */
    public static String masked(String address) {
        int scheme = address.indexOf("://");
        int start = scheme >= 0 ? scheme + 3 : 0;
        int at = address.lastIndexOf('@');
        if (at >= start) {
            return address.substring(0, start) + "***@" + address.substring(at + 1);
        }
        return address;
    }

    /**
     * The Redisson configuration these settings describe. Its {@code lockWatchdogTimeout}, the lease of every
     * watchdog-mode lock: {@code padlock.watchdog-timeout} when set; else the config file's
     * {@code lockWatchdogTimeout} when there is a file; else 30 s.
     */
    public Config toRedissonConfig(ClassLoader loader) {
        Config config = configFile != null ? loadFile(loader) : build();
        if (watchdogTimeout != null) {
            config.setLockWatchdogTimeout(watchdogTimeout.toMillis());
        } else if (configFile == null) {
            config.setLockWatchdogTimeout(DEFAULT_WATCHDOG_TIMEOUT.toMillis());
        }
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
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Invalid " + CONFIG_FILE + ": '" + configFile + "' cannot be read (" + e.getMessage()
                            + "). Check that it exists and is readable.",
                    e);
        } catch (RuntimeException e) {
            if (e instanceof IllegalStateException && e.getMessage().startsWith("Invalid")) {
                throw (IllegalStateException) e;
            }
            // No cause: SnakeYAML's messages quote the lines around the error, and the line may hold the password.
            throw new IllegalStateException(notRedissonYaml(e));
        }
    }

    /** Where the file is wrong, by line and column; never its content. */
    private String notRedissonYaml(RuntimeException failure) {
        MarkedYAMLException marked = null;
        Throwable innermost = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            // The innermost mark is where the value is; outer ones point at the enclosing sections.
            if (t instanceof MarkedYAMLException m && (m.getProblemMark() != null || m.getContextMark() != null)) {
                marked = m;
            }
            innermost = t;
        }
        String start = "Invalid " + CONFIG_FILE + ": '" + configFile + "' ";
        String fix = ". Fix the file there (this message leaves its content out, as it may hold a password).";
        if (marked == null) {
            return start + "is not a Redisson YAML configuration ("
                    + innermost.getClass().getSimpleName() + ")" + fix;
        }
        Mark mark = marked.getProblemMark() != null ? marked.getProblemMark() : marked.getContextMark();
        String where = "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
        return start
                + (marked instanceof ConstructorException
                        ? "has a value Redisson's configuration cannot take (an unknown name or a wrong type) at "
                        : "is not valid YAML at ")
                + where
                + fix;
    }

    /** Checks what can only be checked by reading the file; a problem names the key. */
    public void checkConfigFile(ClassLoader loader, List<String> problems) {
        if (configFile != null) {
            Config config;
            try {
                config = loadFile(loader);
            } catch (IllegalStateException e) {
                problems.add(e.getMessage());
                return;
            }
            long fileWatchdog = config.getLockWatchdogTimeout();
            if (watchdogTimeout == null
                    && (fileWatchdog < MIN_WATCHDOG_TIMEOUT.toMillis() || fileWatchdog > DurationText.MAX.toMillis())) {
                problems.add("Invalid lockWatchdogTimeout in " + CONFIG_FILE + " '" + configFile + "': "
                        + fileWatchdog + " ms is "
                        + (fileWatchdog < MIN_WATCHDOG_TIMEOUT.toMillis()
                                ? "under 1s; the watchdog renews every third of it"
                                : "more than 10 years")
                        + ". Use 30000 (the default), or 1000 or more, in the file, or set " + WATCHDOG_TIMEOUT
                        + ", which wins over the file.");
            }
        }
    }

    /**
     * The start-up line when the application provides its own {@code RedissonClient}: which of the keys that
     * describe Padlock's own client are set but do not apply. Names only, never values (the password, or one
     * inside an address).
     */
    public static Optional<String> ignoredWithApplicationClient(ConfigView config) {
        List<String> set =
                CLIENT_KEYS.stream().filter(key -> config.get(key).isPresent()).toList();
        if (set.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Padlock locks through the application's own RedissonClient, so " + String.join(", ", set)
                + (set.size() == 1 ? " is" : " are") + " set but ignored: that client's own configuration applies,"
                + " its lockWatchdogTimeout included. Remove " + (set.size() == 1 ? "the key" : "these keys")
                + ", or the application's RedissonClient bean to have Padlock build its client from them.");
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
        String watchdog = watchdogTimeout != null
                ? DurationText.format(watchdogTimeout)
                : configFile != null ? "from the file" : DurationText.format(DEFAULT_WATCHDOG_TIMEOUT);
        return "RedisConnectionSettings[" + describe() + ", watchdog " + watchdog + "]";
    }
}
