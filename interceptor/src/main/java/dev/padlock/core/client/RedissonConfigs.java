package dev.padlock.core.client;

import static dev.padlock.core.config.ConfigKeys.REDIS_CONFIG_FILE;
import static dev.padlock.core.config.ConfigKeys.WATCHDOG_TIMEOUT;

import dev.padlock.core.config.DurationText;
import dev.padlock.core.config.Problems;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import org.redisson.config.Config;
import org.yaml.snakeyaml.constructor.ConstructorException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Builds the Redisson {@link Config} that {@link RedisConnectionSettings} describe, from the keys or the file. */
public final class RedissonConfigs {

    /** A config file that cannot be loaded, worded as a problem that names {@code padlock.redis.config-file}. */
    static final class ConfigFileException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        private final String reason;
        private final String fix;

        ConfigFileException(String reason, String fix, Throwable cause) {
            super(Problems.text("Invalid " + REDIS_CONFIG_FILE, reason, fix), cause);
            this.reason = reason;
            this.fix = fix;
        }
    }

    private RedissonConfigs() {}

    /**
     * The Redisson configuration for {@code settings}: read from their YAML file (a path, else a resource of {@code
     * loader}), or made from their keys. A watchdog timeout or replica confirmation set by key overrides the file's;
     * without a file, the ones left unset take Padlock's defaults ({@link
     * RedisConnectionSettings#DEFAULT_WATCHDOG_TIMEOUT}, {@link RedisConnectionSettings.Replicas#DEFAULT_TIMEOUT}).
     */
    public static Config build(RedisConnectionSettings settings, ClassLoader loader) {
        Config config = settings.configFile() != null ? load(settings.configFile(), loader) : fromKeys(settings);
        if (settings.watchdogTimeout() != null) {
            config.setLockWatchdogTimeout(settings.watchdogTimeout().toMillis());
        } else if (settings.configFile() == null) {
            config.setLockWatchdogTimeout(RedisConnectionSettings.DEFAULT_WATCHDOG_TIMEOUT.toMillis());
        }
        RedisConnectionSettings.Replicas replicas = settings.replicas();
        if (replicas.confirm() != null) {
            config.setCheckLockSyncedSlaves(replicas.confirm());
        }
        if (replicas.timeout() != null) {
            config.setSlavesSyncTimeout(replicas.timeout().toMillis());
        } else if (settings.configFile() == null) {
            config.setSlavesSyncTimeout(RedisConnectionSettings.Replicas.DEFAULT_TIMEOUT.toMillis());
        }
        return config;
    }

    private static Config fromKeys(RedisConnectionSettings s) {
        Config config = new Config();
        if (s.username() != null) {
            config.setUsername(s.username());
        }
        if (s.password() != null) {
            config.setPassword(s.password());
        }
        String[] addresses = s.addresses().toArray(new String[0]);
        switch (s.mode()) {
            case SINGLE -> {
                var single = config.useSingleServer().setAddress(addresses[0]);
                if (s.database() != null) {
                    single.setDatabase(s.database());
                }
            }
            case CLUSTER -> config.useClusterServers().addNodeAddress(addresses);
            case SENTINEL -> {
                var sentinel = config.useSentinelServers()
                        .setMasterName(s.masterName())
                        .addSentinelAddress(addresses);
                if (s.database() != null) {
                    sentinel.setDatabase(s.database());
                }
            }
            case REPLICATED -> {
                var replicated = config.useReplicatedServers().addNodeAddress(addresses);
                if (s.database() != null) {
                    replicated.setDatabase(s.database());
                }
            }
        }
        return config;
    }

    /**
     * Checks what can only be checked by reading the config file, if there is one: its {@code lockWatchdogTimeout}; a
     * problem names the key.
     */
    public static void checkFile(RedisConnectionSettings settings, ClassLoader loader, Problems problems) {
        if (settings.configFile() == null) {
            return;
        }
        Config config;
        try {
            config = load(settings.configFile(), loader);
        } catch (ConfigFileException e) {
            problems.invalidKey(REDIS_CONFIG_FILE, e.reason, e.fix);
            return;
        }
        long fileWatchdog = config.getLockWatchdogTimeout();
        long min = RedisConnectionSettings.MIN_WATCHDOG_TIMEOUT.toMillis();
        if (settings.watchdogTimeout() == null && (fileWatchdog < min || fileWatchdog > DurationText.MAX.toMillis())) {
            problems.invalid(
                    "lockWatchdogTimeout in " + REDIS_CONFIG_FILE + " '" + settings.configFile() + "'",
                    fileWatchdog + " ms is "
                            + (fileWatchdog < min
                                    ? "under 1s; the watchdog renews every third of it"
                                    : "more than 10 years"),
                    "Use 30000 (the default), or 1000 or more, in the file, or set " + WATCHDOG_TIMEOUT
                            + ", which wins over the file");
        }
    }

    /** @throws ConfigFileException when the file is missing, unreadable or no Redisson configuration */
    private static Config load(String configFile, ClassLoader loader) {
        File file = new File(configFile);
        try {
            if (file.isFile()) {
                return Config.fromYAML(file);
            }
            try (InputStream in = loader.getResourceAsStream(configFile)) {
                if (in == null) {
                    throw new ConfigFileException(
                            "'" + configFile + "' is neither a file nor a class-path resource",
                            "Give a path or a resource name",
                            null);
                }
                return Config.fromYAML(in);
            }
        } catch (IOException e) {
            throw new ConfigFileException(
                    "'" + configFile + "' cannot be read (" + e.getMessage() + ")",
                    "Check that it exists and is readable",
                    e);
        } catch (ConfigFileException e) {
            throw e;
        } catch (RuntimeException e) {
            // No cause: SnakeYAML's messages quote the lines around the error, and the line may hold the password.
            throw new ConfigFileException(
                    "'" + configFile + "' " + notRedissonYaml(e),
                    "Fix the file there (this message leaves its content out, as it may hold a password)",
                    null);
        }
    }

    /** Where the file is wrong, by line and column; never its content. */
    private static String notRedissonYaml(RuntimeException failure) {
        MarkedYAMLException marked = null;
        Throwable innermost = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            // The innermost mark is where the value is; outer ones point at the enclosing sections.
            if (t instanceof MarkedYAMLException m && (m.getProblemMark() != null || m.getContextMark() != null)) {
                marked = m;
            }
            innermost = t;
        }
        if (marked == null) {
            return "is not a Redisson YAML configuration ("
                    + innermost.getClass().getSimpleName() + ")";
        }
        Mark mark = marked.getProblemMark() != null ? marked.getProblemMark() : marked.getContextMark();
        String where = "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
        return (marked instanceof ConstructorException
                        ? "has a value Redisson's configuration cannot take (an unknown name or a wrong type) at "
                        : "is not valid YAML at ")
                + where;
    }
}
