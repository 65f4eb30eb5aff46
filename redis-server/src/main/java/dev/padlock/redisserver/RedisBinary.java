package dev.padlock.redisserver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A redis-server executable, and what a launcher must know about its version to configure it. */
public final class RedisBinary {
    /** The executable's name, on the {@code PATH} and in messages. */
    public static final String NAME = "redis-server";

    /** The log file every server writes in its directory ({@code --logfile}). */
    public static final String LOG_FILE = "redis.log";

    private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.");
    private static final Map<Path, RedisBinary> PROBED = new ConcurrentHashMap<>();

    private final Path path;
    private final String origin;
    private final String version;
    private final int majorVersion;

    private RedisBinary(Path path, String origin, String version) {
        this.path = path;
        this.origin = origin;
        this.version = version;
        Matcher matcher = VERSION.matcher(version);
        // Unknown versions get the most conservative configuration rather than a refusal.
        this.majorVersion = matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
    }

    /**
     * The binary at {@code path}, its version probed once per path ({@code redis-server --version}).
     *
     * @param origin where the path came from, for messages ("PATH", "-Dpadlock.test.redis-server")
     * @throws IllegalStateException when it cannot be run
     */
    public static RedisBinary of(Path path, String origin) {
        return PROBED.computeIfAbsent(path, p -> new RedisBinary(p, origin, probeVersion(p, origin)));
    }

    /** {@code redis-server} on the {@code PATH}: lets a tool tell beforehand whether it could start one. */
    public static Optional<Path> findOnPath() {
        return Executables.onPath(NAME);
    }

    private static String probeVersion(Path path, String origin) {
        Process process;
        try {
            process = new ProcessBuilder(path.toString(), "--version")
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Cannot run the redis-server binary " + path + " (from " + origin + "): " + e.getMessage(), e);
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "Timed out after 10 s waiting for `" + path + " --version` (from " + origin + ") to finish");
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return output.strip().lines().findFirst().orElse("");
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the version of " + path + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("Interrupted while probing " + path, e);
        }
    }

    public Path path() {
        return path;
    }

    public String origin() {
        return origin;
    }

    /**
     * The first line of {@code --version}: {@code Redis server v=7.0.15 sha=...}, {@code Valkey server v=8.0.1 ...}.
     */
    public String version() {
        return version;
    }

    /** CLUSTER ADDSLOTSRANGE, SHUTDOWN options and enable-debug-command all arrived in 7.0. */
    public boolean isAtLeast7() {
        return majorVersion >= 7;
    }

    /**
     * The command line of a throw-away, loopback-only, persistence-free node on {@code port}, writing its files and
     * {@link #LOG_FILE} to {@code dir}.
     */
    public List<String> standaloneArguments(int port, Path dir) {
        List<String> args = new ArrayList<>(List.of(
                "--port",
                String.valueOf(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                dir.toString(),
                "--logfile",
                dir.resolve(LOG_FILE).toString(),
                "--daemonize",
                "no",
                "--save",
                "",
                "--appendonly",
                "no",
                // Diskless sync otherwise waits 5 s for more replicas before the first full sync.
                "--repl-diskless-sync-delay",
                "0"));
        if (isAtLeast7()) {
            // Lock tests want DEBUG SLEEP and friends to simulate a stalled server.
            args.add("--enable-debug-command");
            args.add("local");
        }
        return args;
    }

    @Override
    public String toString() {
        return path + " (from " + origin + ")";
    }
}
