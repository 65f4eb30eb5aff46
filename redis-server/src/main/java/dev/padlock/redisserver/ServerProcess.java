package dev.padlock.redisserver;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One redis-server child process on a free loopback port, with its own temporary directory, under a
 * {@link ProcessWatcher watcher} so that it ends with the JVM that started it: killed by {@link #close()}, by a shutdown
 * hook, or by its watcher when the JVM is killed outright. Its directory outlives {@link #stop()} and {@link #kill()}
 * so that a restart on the same port finds its config (cluster nodes.conf, rewritten sentinel config) again.
 *
 * <pre>{@code
 * try (ServerProcess redis = ServerProcess.startStandalone(RedisBinary.of(path, "PATH"))) {
 *     connect(redis.uri()); // redis://127.0.0.1:<a free port>
 * }
 * }</pre>
 *
 * <p>About 400 lines: starting, stopping, killing and restarting one process, and cleaning up after it when its JVM
 * dies, share its port, directory and watcher; split apart, each would need all three.
 */
public final class ServerProcess implements AutoCloseable {
    /** The address every server listens on: loopback only. */
    public static final String HOST = "127.0.0.1";

    /** What the watcher shell is called in {@code ps}: the name CI looks for in the processes a build left. */
    public static final String WATCHER_NAME = "padlock-redis-watcher";

    /** How a server's command line is made: asked anew for each port it tries. */
    @FunctionalInterface
    public interface Arguments {
        /** Everything after the binary, for a server listening on {@code port} and living in {@code dir}. */
        List<String> forPort(int port, Path dir) throws IOException;
    }

    private static final int BIND_ATTEMPTS = 5;
    private static final int LOG_TAIL_LINES = 20;
    private static final String CONSOLE_FILE = "console.log";
    private static final String BIND_CONFLICT = "Address already in use";

    private final RedisBinary binary;
    private final String role;
    private final boolean clusterBus;
    private final String password;
    private final Arguments arguments;
    private final Path dir;
    private final Path log;
    private final Path console;
    /** Kept off the public API: the shutdown hook's handle on this server. */
    private final Reaper.Reapable reaper = this::reap;

    private volatile int port = -1;
    private List<String> args;
    /** Variables set for the server alone (not for its watcher), such as a library to preload; empty by default. */
    private Map<String, String> environment = Map.of();

    private volatile Process watcher;
    private volatile long pid = -1;
    private long logOffset;
    private long consoleOffset;
    private boolean closed;

    /** A server whose own commands (INFO, SHUTDOWN) need no password; see the full constructor. */
    public ServerProcess(RedisBinary binary, String role, boolean clusterBus, Arguments arguments) {
        this(binary, role, clusterBus, null, arguments);
    }

    /**
     * Prepares a server and its directory; nothing runs until {@link #launch()}.
     *
     * @param role what the server is, for messages ("redis-server", "sentinel", "cluster master 2")
     * @param clusterBus whether the port must leave port + 10000 free as well, for the cluster bus
     * @param password the default user's password ({@code requirepass}) for the commands this class sends, or null
     * @param arguments the command line after the binary, asked anew for every port the server tries
     */
    public ServerProcess(RedisBinary binary, String role, boolean clusterBus, String password, Arguments arguments) {
        this.binary = binary;
        this.role = role;
        this.clusterBus = clusterBus;
        this.password = password;
        this.arguments = arguments;
        try {
            this.dir = Files.createTempDirectory("padlock-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary directory for " + role, e);
        }
        this.log = dir.resolve(RedisBinary.LOG_FILE);
        this.console = dir.resolve(CONSOLE_FILE);
        Reaper.register(reaper);
    }

    /**
     * A throw-away, loopback-only, persistence-free node ({@link RedisBinary#standaloneArguments}), started and
     * answering: Padlock's Dev Services use this one.
     *
     * @throws IllegalStateException when it does not start; the message ends with the last lines of its log
     */
    public static ServerProcess startStandalone(RedisBinary binary) {
        return start(binary, "redis-server", null, binary::standaloneArguments);
    }

    /**
     * Launches a server and waits until it answers, as {@link #launch()} and {@link #awaitLaunched()} do; a server
     * that does not start is closed again, its directory removed.
     */
    public static ServerProcess start(RedisBinary binary, String role, String password, Arguments arguments) {
        return start(binary, role, password, Map.of(), arguments);
    }

    /**
     * Like {@link #start(RedisBinary, String, String, Arguments)}, with {@code environment} set for the server
     * process alone (through {@code env}), e.g. a library to preload.
     */
    public static ServerProcess start(
            RedisBinary binary, String role, String password, Map<String, String> environment, Arguments arguments) {
        ServerProcess process = new ServerProcess(binary, role, false, password, arguments);
        process.environment = new TreeMap<>(environment);
        try {
            process.launch();
            process.awaitLaunched();
            return process;
        } catch (RuntimeException | Error e) {
            // an Error too: a started process must not outlive a start that failed
            try {
                process.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** Spawns on a fresh port without waiting, so that several nodes can boot side by side. */
    public synchronized void launch() {
        ensureOpen();
        choosePort();
        spawn();
    }

    /** Waits for {@link #launch()}; a lost race for the port moves the server to another one. */
    public synchronized void awaitLaunched() {
        try {
            for (int attempt = 1; !awaitStartup(); attempt++) {
                if (attempt >= BIND_ATTEMPTS) {
                    throw new IllegalStateException(role + " could not bind a free port in " + BIND_ATTEMPTS
                            + " attempts; last was " + HOST + ":" + port + "\n" + logTail());
                }
                choosePort();
                spawn();
            }
        } catch (RuntimeException e) {
            reapProcesses();
            throw e;
        }
    }

    /** Starts again on the same port, with the same arguments; no-op while running. */
    public synchronized void start() {
        ensureOpen();
        if (isRunning()) {
            return;
        }
        if (args == null) {
            launch();
            awaitLaunched();
            return;
        }
        awaitWatcherExit();
        spawn();
        try {
            if (!awaitStartup()) {
                throw new IllegalStateException(role + " cannot restart: " + HOST + ":" + port
                        + " has been taken by another process meanwhile\n" + logTail());
            }
        } catch (RuntimeException e) {
            reapProcesses();
            throw e;
        }
    }

    public synchronized void stop() {
        if (!isRunning()) {
            awaitWatcherExit();
            return;
        }
        try {
            RespConnection.callWithPassword(HOST, port, password, "SHUTDOWN", "NOSAVE");
        } catch (IOException expected) {
            // The server drops the connection as it exits; that is the success case.
        } catch (RedisReplyException refused) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        awaitGone("SHUTDOWN NOSAVE");
    }

    public synchronized void kill() {
        if (!isRunning()) {
            awaitWatcherExit();
            return;
        }
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        awaitGone("SIGKILL");
    }

    public synchronized boolean isRunning() {
        long current = pid;
        return current > 0
                && ProcessHandle.of(current).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The current or, once it has ended, the last redis-server pid. */
    public long pid() {
        return pid;
    }

    /** The port, chosen by {@link #launch()}; kept across {@link #stop()} and {@link #start()}. */
    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://" + HOST + ":" + port;
    }

    public String role() {
        return role;
    }

    /** The server's working directory, with its log; removed by {@link #close()}. */
    public Path directory() {
        return dir;
    }

    /** Stops the server if it runs and removes its directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stop();
        } catch (RuntimeException e) {
            reapProcesses();
            throw e;
        } finally {
            TempDirectories.delete(dir);
            Reaper.unregister(reaper);
        }
    }

    /** Runs from the shutdown hook, possibly while another thread holds this object's lock. */
    private void reap() {
        reapProcesses();
        TempDirectories.delete(dir);
    }

    private void reapProcesses() {
        long current = pid;
        if (current > 0) {
            ProcessHandle.of(current).ifPresent(ProcessHandle::destroyForcibly);
        }
        Process shell = watcher;
        if (shell != null) {
            shell.descendants().forEach(ProcessHandle::destroyForcibly);
            shell.destroyForcibly();
        }
    }

    private void choosePort() {
        port = Ports.free(clusterBus);
        try {
            args = List.copyOf(arguments.forPort(port, dir));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare " + role + " in " + dir, e);
        }
    }

    private void spawn() {
        List<String> server = new ArrayList<>();
        if (!environment.isEmpty()) {
            // env execs the server: the watcher's child keeps its pid, and is still named redis-server in ps
            server.add("env");
            environment.forEach((name, value) -> server.add(name + "=" + value));
        }
        server.add(binary.path().toString());
        server.addAll(args);
        List<String> command = ProcessWatcher.command(WATCHER_NAME, dir, server);
        logOffset = size(log);
        consoleOffset = size(console);
        pid = -1;
        try {
            watcher = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot launch " + binary + " through /bin/sh", e);
        }
    }

    /** True once our own process answers on the port; false when it lost the port to someone else. */
    private boolean awaitStartup() {
        Process shell = watcher;
        return Wait.until(
                role + " (" + binary.path() + ") to answer on " + HOST + ":" + port,
                () -> {
                    if (!shell.isAlive()) {
                        if (logSinceSpawn().contains(BIND_CONFLICT)) {
                            return Boolean.FALSE;
                        }
                        throw new IllegalStateException(role + " exited with status " + shell.exitValue()
                                + " while starting on " + HOST + ":" + port + "; arguments " + args + "\n"
                                + logTail());
                    }
                    Map<String, String> server =
                            Info.fields(RespConnection.callWithPassword(HOST, port, password, "INFO", "server"));
                    long reported = Long.parseLong(server.getOrDefault("process_id", "-1"));
                    // Whoever answers must be our child: another process may have won the port.
                    boolean ours = ProcessHandle.of(reported)
                            .flatMap(ProcessHandle::parent)
                            .map(parent -> parent.pid() == shell.pid())
                            .orElse(false);
                    if (!ours) {
                        return null;
                    }
                    pid = reported;
                    return Boolean.TRUE;
                },
                this::logTail);
    }

    private void awaitGone(String how) {
        long gonePid = pid;
        Process shell = watcher;
        try {
            Wait.until(
                    role + " pid " + gonePid + " on " + HOST + ":" + port + " to exit after " + how,
                    () -> !ProcessHandle.of(gonePid).map(ProcessHandle::isAlive).orElse(false)
                                    && (shell == null || !shell.isAlive())
                                    && !RespConnection.accepts(HOST, port)
                            ? Boolean.TRUE
                            : null,
                    this::logTail);
        } catch (RuntimeException e) {
            reapProcesses();
            throw e;
        }
    }

    private void awaitWatcherExit() {
        Process shell = watcher;
        if (shell != null && shell.isAlive()) {
            Wait.until(
                    "the watcher shell of " + role + " on port " + port + " to exit",
                    () -> shell.isAlive() ? null : Boolean.TRUE,
                    this::logTail);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(role + " on port " + port + " has been closed");
        }
    }

    /** The last lines of what the server wrote (its log file and its console), for error messages. */
    public String logTail() {
        StringBuilder tail = new StringBuilder();
        appendTail(tail, log);
        appendTail(tail, console);
        if (tail.length() == 0) {
            tail.append("(")
                    .append(role)
                    .append(" wrote no log to ")
                    .append(dir)
                    .append(")");
        }
        return tail.toString();
    }

    private static void appendTail(StringBuilder tail, Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return;
        }
        if (lines.isEmpty()) {
            return;
        }
        if (tail.length() > 0) {
            tail.append('\n');
        }
        tail.append("--- last lines of ").append(file).append(" ---");
        for (String line : lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())) {
            tail.append('\n').append(line);
        }
    }

    private String logSinceSpawn() {
        return readFrom(log, logOffset) + readFrom(console, consoleOffset);
    }

    private static String readFrom(Path file, long offset) {
        try {
            byte[] all = Files.readAllBytes(file);
            int from = (int) Math.min(offset, all.length);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public String toString() {
        return role + " " + HOST + ":" + port + (isRunning() ? " (pid " + pid + ")" : " (not running)");
    }
}
