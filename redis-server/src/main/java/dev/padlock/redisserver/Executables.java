package dev.padlock.redisserver;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds programs the way a shell would, through the {@code PATH}: {@code redis-server} here, and the browser and its
 * driver for Padlock's own browser tests.
 */
public final class Executables {

    private Executables() {}

    /** The first executable file called {@code name} in a directory of this process's {@code PATH}. */
    public static Optional<Path> onPath(String name) {
        return onPath(name, System.getenv("PATH"));
    }

    /**
     * The first executable file called {@code name} in one of the directories of {@code path}, a list in the form of
     * the {@code PATH} variable (empty when {@code path} is null or empty).
     */
    public static Optional<Path> onPath(String name, String path) {
        if (path == null || path.isEmpty()) {
            return Optional.empty();
        }
        for (String directory : path.split(File.pathSeparator)) {
            if (directory.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(directory, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
