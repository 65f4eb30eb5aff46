package dev.padlock.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One redis-server child process with its own temporary directory, which outlives stop/kill so that
 * a restart on the same port finds its config (cluster nodes.conf, rewritten sentinel config) again.
 */
final class ServerProcess implements Reaper.Reapable {
    static final String HOST = "127.0.0.1";

    @FunctionalInterface
    interface Arguments {
        /** Everything after the binary, for a server listening on {@code port} and living in {@code dir}. */
        List<String> forPort(int port, Path dir) throws IOException;
    }

    private static final int BIND_ATTEMPTS = 5;
    private static final int LOG_TAIL_LINES = 20;
    private static final String CONSOLE_FILE = "console.log";
    private static final String BIND_CONFLICT = "Address already in use";

    /*
     * redis-server is not exec'd directly: a SIGKILLed JVM runs no shutdown hook, and the orphan would
     * keep its port forever. The shell stays as its parent, and a guard loop kills it once the JVM's pid
     * is gone; the shell then removes the directory, which no shutdown hook will. The shell reaps the
     * child itself, so a killed server does not linger as a zombie that still looks alive.
     */
    private static final String WATCHER_SCRIPT = String.join(
            "\n",
            "jvm=$1; dir=$2; shift 2",
            "\"$@\" &",
            "child=$!",
            "(",
            "  while kill -0 \"$jvm\" 2>/dev/null; do sleep 1; done",
            "  kill -9 \"$child\" 2>/dev/null",
            ") &",
            "guard=$!",
            "wait \"$child\"",
            "status=$?",
            "kill \"$guard\" 2>/dev/null",
            "if ! kill -0 \"$jvm\" 2>/dev/null && [ -n \"$dir\" ]; then rm -rf \"$dir\"; fi",
            "exit \"$status\"");

    private final RedisBinary binary;
    private final String role;
    private final boolean clusterBus;
    private final String password;
    private final Arguments arguments;
    private final Path dir;
    private final Path log;
    private final Path console;

    private volatile int port = -1;
    private List<String> args;
    private volatile Process watcher;
    private volatile long pid = -1;
    private long logOffset;
    private long consoleOffset;
    private boolean closed;

    ServerProcess(RedisBinary binary, String role, boolean clusterBus, Arguments arguments) {
        this(binary, role, clusterBus, null, arguments);
    }

    /** @param password the default user's password ({@code requirepass}) the harness sends, or null for none */
    ServerProcess(RedisBinary binary, String role, boolean clusterBus, String password, Arguments arguments) {
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
        Reaper.register(this);
    }

    /** Spawns on a fresh port without waiting, so that several nodes can boot side by side. */
    synchronized void launch() {
        ensureOpen();
        choosePort();
        spawn();
    }

    /** Waits for {@link #launch()}; a lost race for the port moves the server to another one. */
    synchronized void awaitLaunched() {
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
    synchronized void start() {
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

    synchronized void stop() {
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

    synchronized void kill() {
        if (!isRunning()) {
            awaitWatcherExit();
            return;
        }
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        awaitGone("SIGKILL");
    }

    synchronized boolean isRunning() {
        long current = pid;
        return current > 0
                && ProcessHandle.of(current).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The current or, once it has ended, the last redis-server pid. */
    long pid() {
        return pid;
    }

    int port() {
        return port;
    }

    String role() {
        return role;
    }

    Path directory() {
        return dir;
    }

    synchronized void close() {
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
            Reaper.unregister(this);
        }
    }

    /** Runs from the shutdown hook, possibly while another thread holds this object's lock. */
    @Override
    public void reap() {
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
        List<String> command = new ArrayList<>(List.of(
                "/bin/sh",
                "-c",
                WATCHER_SCRIPT,
                "padlock-redis-watcher",
                String.valueOf(ProcessHandle.current().pid()),
                dir.toString(),
                binary.path().toString()));
        command.addAll(args);
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

    /** The last lines of what the server wrote, for error messages. */
    String logTail() {
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
