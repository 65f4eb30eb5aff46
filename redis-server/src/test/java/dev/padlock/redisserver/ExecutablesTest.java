package dev.padlock.redisserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutablesTest {

    @Test
    void pathLookupFindsOnlyAnExecutableFile(@TempDir Path temp) throws IOException {
        Path notExecutable = Files.createDirectories(temp.resolve("a")).resolve("redis-server");
        Files.writeString(notExecutable, "");
        Files.createDirectories(temp.resolve("c").resolve("redis-server"));
        Path executable = Files.createDirectories(temp.resolve("b")).resolve("redis-server");
        Files.writeString(executable, "");
        Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwxr-xr-x"));
        String path = temp.resolve("missing") + ":" + notExecutable.getParent() + "::" + temp.resolve("c") + ":"
                + executable.getParent();

        assertThat(Executables.onPath("redis-server", path)).contains(executable);
        assertThat(Executables.onPath("redis-server", temp.resolve("a").toString()))
                .isEmpty();
        assertThat(Executables.onPath("redis-server", null)).isEmpty();
        assertThat(Executables.onPath("redis-server", "")).isEmpty();
    }
}
