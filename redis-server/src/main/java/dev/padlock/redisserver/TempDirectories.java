package dev.padlock.redisserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The temporary directories made for the processes a JVM starts (a server's files, a browser profile). */
public final class TempDirectories {

    private TempDirectories() {}

    /** Deletes {@code dir} and everything in it, as far as it can: a leftover is not worth failing a test over. */
    public static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // see above
        }
    }
}
