package dev.padlock.redisserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watcher's script form, which a tool that only takes a program's path (a WebDriver service) runs. */
class ProcessWatcherTest {

    @Test
    void scriptRunsTheProgramWithItsArgumentsAndPassesItsExitStatusOn(@TempDir Path temp)
            throws IOException, InterruptedException {
        // Quotes and spaces in every path the script names must reach the program as they are.
        Path directory = Files.createDirectories(temp.resolve("it's a dir"));
        Path program = directory.resolve("echo args");
        Files.writeString(program, "#!/bin/sh\nprintf '%s|' \"$@\"\nexit 3\n");
        program.toFile().setExecutable(true);

        Path script = ProcessWatcher.script("padlock-test-watcher", directory, program);
        assertThat(script).isEqualTo(directory.resolve("padlock-test-watcher")).isExecutable();
        Process run = new ProcessBuilder(script.toString(), "one", "two words", "it's")
                .redirectErrorStream(true)
                .start();
        String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(run.waitFor()).isEqualTo(3);
        assertThat(output).isEqualTo("one|two words|it's|");
        assertThat(directory).as("left alone while its JVM lives").isDirectory();
    }

    @Test
    void commandNamesTheWatcherTheJvmAndTheDirectoryBeforeTheProgram(@TempDir Path temp) {
        List<String> command = ProcessWatcher.command("padlock-test-watcher", temp, List.of("redis-server", "--port"));

        assertThat(command.subList(0, 2)).containsExactly("/bin/sh", "-c");
        assertThat(command.subList(3, command.size()))
                .containsExactly(
                        "padlock-test-watcher",
                        String.valueOf(ProcessHandle.current().pid()),
                        temp.toString(),
                        "redis-server",
                        "--port");
    }
}
