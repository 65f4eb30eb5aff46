package dev.padlock.testing;

import dev.padlock.redisserver.RespConnection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Redis's own log of what it ran, read through {@code MONITOR} from {@link RedisServer#monitor()} on: every command
 * the server executes, in its order, including those a Lua script runs (shown with the client {@code lua}, right after
 * the {@code EVAL}/{@code EVALSHA} that ran them), so a test can see what a lock script did to a key rather than what
 * the client asked for. Commands are read on a thread of its own; {@link #sync()} waits until everything the server
 * ran before it is in. Close it (try-with-resources), also when a test fails: it holds a connection and a thread.
 *
 * <p>MONITOR costs the server a little per command and never shows {@code AUTH}, {@code HELLO} or other commands it
 * keeps secret; key expiries are not commands and do not show either.
 *
 * <p>A little over 250 lines: the commands it returns carry their own parsing of MONITOR's line format.
 */
public final class RedisMonitor implements AutoCloseable {

    private static final String SYNC_MARKER = "padlock-testing-monitor-sync-";
    private static final AtomicInteger THREADS = new AtomicInteger();

    /** One command as MONITOR shows it. */
    public record Command(long micros, int db, String client, List<String> args) {

        public Command {
            args = List.copyOf(args);
        }

        /** The command's name, lower case ({@code "hincrby"}). */
        public String name() {
            return args.get(0).toLowerCase(Locale.ROOT);
        }

        /** Argument {@code index}: 0 is the name, 1 the first argument (often the key). */
        public String arg(int index) {
            return args.get(index);
        }

        /** Whether a Lua script ran it (an {@code EVAL}'s or {@code EVALSHA}'s inner command). */
        public boolean fromScript() {
            return client.equals("lua");
        }

        /**
         * Parses one line of MONITOR output, {@code 1339518083.107412 [0 127.0.0.1:60866] "keys" "*"}, its
         * arguments quoted and escaped as Redis does ({@code \"}, {@code \\}, {@code \n}, {@code \xHH}...).
         */
        public static Command parse(String line) {
            int space = line.indexOf(' ');
            int open = line.indexOf('[', space);
            int dbEnd = line.indexOf(' ', open);
            int close = line.indexOf("] \"", dbEnd);
            if (space < 0 || open != space + 1 || dbEnd < 0 || close < 0) {
                throw new IllegalArgumentException("not a MONITOR line: " + line);
            }
            String[] time = line.substring(0, space).split("\\.");
            long micros = Long.parseLong(time[0]) * 1_000_000 + (time.length > 1 ? Long.parseLong(time[1]) : 0);
            int db = Integer.parseInt(line.substring(open + 1, dbEnd));
            String client = line.substring(dbEnd + 1, close);
            return new Command(micros, db, client, unquote(line, close + 2));
        }

        private static List<String> unquote(String line, int from) {
            List<String> args = new ArrayList<>();
            int i = from;
            while (i < line.length()) {
                if (line.charAt(i) == ' ') {
                    i++;
                    continue;
                }
                if (line.charAt(i) != '"') {
                    throw new IllegalArgumentException("not a quoted argument at " + i + ": " + line);
                }
                ByteArrayOutputStream arg = new ByteArrayOutputStream();
                i++;
                while (true) {
                    if (i >= line.length()) {
                        throw new IllegalArgumentException("unterminated argument: " + line);
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        break;
                    }
                    if (c != '\\') {
                        arg.write(c); // Redis escapes every byte that is not printable ASCII
                        continue;
                    }
                    char escaped = line.charAt(i++);
                    switch (escaped) {
                        case 'n' -> arg.write('\n');
                        case 'r' -> arg.write('\r');
                        case 't' -> arg.write('\t');
                        case 'a' -> arg.write(7);
                        case 'b' -> arg.write('\b');
                        case 'x' -> {
                            arg.write(Integer.parseInt(line.substring(i, i + 2), 16));
                            i += 2;
                        }
                        default -> arg.write(escaped); // \" and \\
                    }
                }
                args.add(arg.toString(StandardCharsets.UTF_8));
            }
            if (args.isEmpty()) {
                throw new IllegalArgumentException("no command in: " + line);
            }
            return args;
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder("[").append(client).append(']');
            for (String arg : args) {
                text.append(" \"").append(arg).append('"');
            }
            return text.toString();
        }
    }

    /** The server's address, for messages. */
    private final String uri;
    /** Sends {@code ECHO <marker>} to the server on a connection other than the monitor's. */
    private final Consumer<String> echo;

    private final RespConnection connection;
    private final Thread reader;
    private final List<Command> commands = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger syncs = new AtomicInteger();
    private volatile String lastMarker = "";
    private volatile Throwable failure;
    private volatile boolean closed;

    private RedisMonitor(String uri, int port, Consumer<String> echo, RespConnection connection) {
        this.uri = uri;
        this.echo = echo;
        this.connection = connection;
        this.reader = new Thread(this::read, "redis-monitor-" + port + "-" + THREADS.incrementAndGet());
        reader.setDaemon(true);
    }

    /**
     * Switches {@code connection} (to the server at {@code uri}, authenticated as the harness is) to MONITOR and starts
     * reading; {@code echo} sends an {@code ECHO} on another connection, for {@link #sync()}.
     */
    static RedisMonitor start(String uri, int port, Consumer<String> echo, RespConnection connection)
            throws IOException {
        try {
            Object reply = connection.send("MONITOR");
            if (!"OK".equals(reply)) {
                throw new IOException("MONITOR answered " + reply);
            }
            connection.readTimeout(Duration.ZERO); // MONITOR may stay silent for as long as the server is idle
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
        RedisMonitor monitor = new RedisMonitor(uri, port, echo, connection);
        monitor.reader.start();
        return monitor;
    }

    private void read() {
        try {
            while (!closed) {
                String line = (String) connection.receive();
                Command command = Command.parse(line);
                if (command.name().equals("echo") && command.args().size() == 2) {
                    String arg = command.arg(1);
                    if (arg.startsWith(SYNC_MARKER)) {
                        lastMarker = arg;
                        synchronized (this) {
                            notifyAll();
                        }
                        continue;
                    }
                }
                commands.add(command);
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                failure = e;
                synchronized (this) {
                    notifyAll();
                }
            }
        }
    }

    /** The commands shown so far, in the order the server ran them. */
    public List<Command> commands() {
        Throwable failed = failure;
        if (failed != null) {
            throw new IllegalStateException("MONITOR of " + uri + " stopped: " + failed, failed);
        }
        synchronized (commands) {
            return List.copyOf(commands);
        }
    }

    /**
     * Waits (at most 10 s) until the monitor has shown every command the server ran before this call, then returns
     * {@link #commands()}: an {@code ECHO} marker is sent on another connection and awaited (and left out).
     */
    public List<Command> sync() {
        String marker = SYNC_MARKER + syncs.incrementAndGet();
        echo.accept(marker);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        synchronized (this) {
            while (!marker.equals(lastMarker) && failure == null) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new IllegalStateException("MONITOR of " + uri + " did not show " + marker + " within 10 s ("
                            + commands.size() + " commands read)");
                }
                try {
                    wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for MONITOR of " + uri, e);
                }
            }
        }
        return commands();
    }

    /** Ends MONITOR: closes its connection and waits for its reading thread to end. Idempotent. */
    @Override
    public void close() {
        closed = true;
        try {
            connection.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close MONITOR of " + uri, e);
        } finally {
            try {
                reader.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "RedisMonitor[" + uri + ", " + commands.size() + " commands]";
    }
}
