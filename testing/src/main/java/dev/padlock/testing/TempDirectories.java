package dev.padlock.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The temporary directories the harness makes for the processes it starts (a server's files, a browser profile). */
final class TempDirectories {

    private TempDirectories() {}

    /** Deletes {@code dir} and everything in it, as far as it can: a leftover is not worth failing a test over. */
    static void delete(Path dir) {
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
