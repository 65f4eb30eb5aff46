package dev.padlock.testing;

import dev.padlock.redisserver.Executables;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A wall clock a test can step or stop under a redis-server it starts with
 * {@link ServerOptions#clock(ServerClock)}: the server's {@code TIME}, and the expiries it measures, follow it; its
 * monotonic clock and everything outside the server do not. It works by preloading a small library into the server
 * ({@code steppable-clock.c}, compiled here with the machine's C compiler), because libfaketime hangs a server linked
 * with jemalloc, as Debian's redis-server and valkey-server are.
 *
 * <pre>{@code
 * try (ServerClock clock = ServerClock.create();
 *         RedisServer redis = Redis.startServer(ServerOptions.defaults().clock(clock))) {
 *     clock.step(Duration.ofSeconds(60)); // keys with less than 60 s to live expire now
 * }
 * }</pre>
 */
public final class ServerClock implements AutoCloseable {

    private static final String SOURCE = "steppable-clock.c";

    private final Path dir;
    private final Path library;
    private final Path settings;

    private ServerClock(Path dir, Path library, Path settings) {
        this.dir = dir;
        this.library = library;
        this.settings = settings;
    }

    /**
     * Compiles the preloaded library into a temporary directory, with the clock running true.
     *
     * @throws IllegalStateException when no C compiler ({@code cc}) is installed, saying how to get one
     */
    public static ServerClock create() {
        Path cc = Executables.onPath("cc")
                .or(() -> Executables.onPath("gcc"))
                .orElseThrow(() -> new IllegalStateException("A test that steps a Redis server's clock compiles a"
                        + " small preloaded library, and no C compiler (cc or gcc) is on the PATH. Install one:"
                        + " apt-get install gcc (Debian, Ubuntu), dnf install gcc (Fedora), xcode-select --install"
                        + " (macOS, where preloading needs DYLD_INSERT_LIBRARIES and is not supported here)."));
        Path dir;
        try {
            dir = Files.createTempDirectory("padlock-clock-");
            Path source = dir.resolve(SOURCE);
            try (InputStream in = ServerClock.class.getResourceAsStream(SOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(SOURCE + " is missing from padlock-testing's resources");
                }
                Files.copy(in, source);
            }
            Path library = dir.resolve("libsteppable-clock.so");
            Path settings = dir.resolve("clock");
            ServerClock clock = new ServerClock(dir, library, settings);
            clock.write(0, 0);
            compile(cc, source, library, dir);
            return clock;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare a steppable clock", e);
        }
    }

    private static void compile(Path cc, Path source, Path library, Path dir) throws IOException {
        Path output = dir.resolve("cc.log");
        Process compiler = new ProcessBuilder(
                        cc.toString(), "-shared", "-fPIC", "-O2", "-o", library.toString(), source.toString())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        try {
            if (!compiler.waitFor(60, TimeUnit.SECONDS)) {
                compiler.destroyForcibly();
                throw new IllegalStateException(cc + " did not compile " + SOURCE + " within 60 s");
            }
        } catch (InterruptedException e) {
            compiler.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while compiling " + SOURCE, e);
        }
        if (compiler.exitValue() != 0) {
            throw new IllegalStateException(cc + " could not compile " + SOURCE + ": " + Files.readString(output));
        }
    }

    /** What the server is started with: the library to preload and the file it reads. */
    Map<String, String> environment() {
        return Map.of("LD_PRELOAD", library.toString(), "PADLOCK_CLOCK_FILE", settings.toString());
    }

    /** Moves the server's wall clock by {@code by} from the true time (negative: back); ends a {@link #freeze()}. */
    public void step(Duration by) {
        write(by.toMillis(), 0);
    }

    /** Stops the server's wall clock at what it reads now (the true time plus the current step). */
    public void freeze() {
        write(currentOffset(), Instant.now().toEpochMilli() + currentOffset());
    }

    private long currentOffset() {
        try (FileChannel channel = FileChannel.open(settings, StandardOpenOption.READ)) {
            ByteBuffer values = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
            channel.read(values, 0);
            return values.getLong(0);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + settings, e);
        }
    }

    /** Writes both values in place: the server maps the file and sees the change at its next clock read. */
    private void write(long offsetMillis, long frozenAtMillis) {
        try (FileChannel channel = FileChannel.open(
                settings, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            ByteBuffer values = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
            values.putLong(offsetMillis).putLong(frozenAtMillis).flip();
            channel.write(values, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + settings, e);
        }
    }

    /** Removes the library and the file; the server that used them must be stopped first. */
    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot remove " + dir, e);
        }
    }

    @Override
    public String toString() {
        return "ServerClock[" + List.of(dir) + "]";
    }
}
