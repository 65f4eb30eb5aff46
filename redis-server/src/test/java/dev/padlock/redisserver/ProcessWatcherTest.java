package dev.padlock.redisserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    /** A browser forks helpers: ending the watcher must end every process the child started, not the child alone. */
    @Test
    void watcherAskedToEndTakesTheChildsWholeProcessGroupWithIt() throws IOException, InterruptedException {
        Process watcher = new ProcessBuilder(ProcessWatcher.command(
                        "padlock-test-watcher", null, List.of("/bin/sh", "-c", "sleep 60 & sleep 60 & wait")))
                .start();
        List<ProcessHandle> started = List.of();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sleeps(started = watcher.descendants().toList()) < 2 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(sleeps(started))
                    .as("the child's two sleeps in %s", started)
                    .isEqualTo(2);

            watcher.destroy();

            assertThat(watcher.waitFor(10, TimeUnit.SECONDS)).isTrue();
            List<ProcessHandle> group = started;
            Wait.until(
                    "the watched processes " + group + " to end",
                    () -> group.stream().anyMatch(ProcessWatcherTest::isRunning) ? null : Boolean.TRUE,
                    () -> "");
        } finally {
            started.forEach(ProcessHandle::destroyForcibly);
            watcher.destroyForcibly();
        }
    }

    private static long sleeps(List<ProcessHandle> processes) {
        return processes.stream()
                .filter(process -> process.info()
                        .arguments()
                        .map(args -> List.of(args).equals(List.of("60")))
                        .orElse(false))
                .count();
    }

    /**
     * Alive and not a zombie: the sleeps, orphaned when their shell is killed, are reaped by the system's init process,
     * which in some containers takes seconds.
     */
    private static boolean isRunning(ProcessHandle process) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return process.isAlive();
        }
    }

    /**
     * A child that exits at once: the guard the watcher forked a moment before must end with the watcher. A guard that
     * survives polls on for as long as the JVM lives, and holds the watcher's output open, so a reader of that output
     * waits for ever (ProcessWatcherTest's first test once hung a CI run that way). With the guard ended by SIGTERM, 1
     * run in 200 left one; 500 runs here, about 5 s.
     */
    @Test
    void noGuardOutlivesAWatcherWhoseChildExitedAtOnce() throws IOException, InterruptedException {
        String name = "padlock-test-guard-" + System.nanoTime();
        for (int i = 0; i < 500; i++) {
            Process watcher = new ProcessBuilder(ProcessWatcher.command(name, null, List.of("/bin/true")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            assertThat(watcher.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        List<ProcessHandle> left = List.of();
        for (int attempt = 0; attempt < 30; attempt++) { // a killed guard is gone at once; allow its reaping
            left = ProcessHandle.allProcesses()
                    .filter(p -> p.info()
                            .arguments()
                            .map(a -> List.of(a).contains(name))
                            .orElse(false))
                    .toList();
            if (left.isEmpty()) {
                break;
            }
            Thread.sleep(100);
        }
        left.forEach(ProcessHandle::destroyForcibly);
        assertThat(left).as("guards still running after their watcher ended").isEmpty();
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
