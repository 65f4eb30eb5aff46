package dev.padlock.redisserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a child process so that it cannot outlive the JVM that started it, for {@link ServerProcess} and for Padlock's
 * own browser tests.
 *
 * <p>A JVM killed outright (SIGKILL, the OOM killer) runs no shutdown hook, and its orphans would keep their ports and
 * memory forever. So the child is not exec'd directly: a small shell stays its parent, and a guard loop in it polls the
 * JVM's pid. Once the JVM is gone, the guard kills the child's whole process group (a browser forks helpers, and
 * redis-server forks to save), and the shell then deletes the child's temporary directory, which no shutdown hook
 * will. A watcher that is itself asked to end (SIGTERM, or SIGINT from a terminal's Ctrl-C) takes the child with it.
 * The shell reaps the child, so a killed child does not linger as a zombie that still looks alive.
 *
 * <p>The shell's {@code $0} is the watcher's name, followed by the JVM's pid and the directory: {@code ps} shows
 * {@code /bin/sh -c <script> padlock-redis-watcher 4242 /tmp/padlock-redis-123 /usr/bin/redis-server --port ...},
 * which is how a CI script tells the processes its build left behind from those of other builds.
 */
public final class ProcessWatcher {

    private static final String SCRIPT = String.join(
            "\n",
            "jvm=$1; dir=$2; shift 2",
            // A session of its own makes the child a process group leader: one signal then ends all it started.
            "if command -v setsid >/dev/null 2>&1; then setsid \"$@\" & else \"$@\" & fi",
            "child=$!",
            // The shell's own notices ("Killed") must not go to the JVM's pipe: once the JVM is gone, writing there
            // raises SIGPIPE, which would end the watcher before it deletes the directory.
            "exec 2>/dev/null",
            // A negative pid signals the group. Dash's kill takes no "--": with it, only the fallback would run.
            "end_child() { kill -9 -\"$child\" || kill -9 \"$child\"; }",
            "trap end_child HUP INT TERM",
            // The guard is a shell of its own (it inherits no trap), named as the watcher, in a session of its own
            // (one signal ends it and the sleep it waits on), writing nowhere (a reader of the watcher's output waits
            // for every writer to close it).
            "guard_loop='while kill -0 \"$1\"; do sleep 1; done; kill -9 -\"$2\" || kill -9 \"$2\"'",
            "if command -v setsid >/dev/null 2>&1; then",
            "  setsid /bin/sh -c \"$guard_loop\" \"$0\" \"$jvm\" \"$child\" >/dev/null 2>&1 &",
            "else",
            "  /bin/sh -c \"$guard_loop\" \"$0\" \"$jvm\" \"$child\" >/dev/null 2>&1 &",
            "fi",
            "guard=$!",
            "wait \"$child\"",
            "status=$?",
            // SIGKILL to the guard's group: it cannot be trapped, and the sleep goes with the loop. (A guard forked
            // from
            // this shell and ended with SIGTERM once survived with the shell's trap, and hung a reader of the output.)
            "kill -9 -\"$guard\" || kill -9 \"$guard\"",
            // A helper outside the group (a browser's crash handler) may still write there for a moment.
            "if ! kill -0 \"$jvm\" && [ -n \"$dir\" ]; then",
            "  for attempt in 1 2 3 4 5; do rm -rf \"$dir\" && break; sleep 1; done",
            "fi",
            "exit \"$status\"");

    private ProcessWatcher() {}

    /**
     * The command line that runs {@code command} under a watcher of this JVM called {@code name}.
     *
     * @param directory deleted by the watcher once the JVM is gone (the child's files), or null for none
     */
    public static List<String> command(String name, Path directory, List<String> command) {
        List<String> watched = new ArrayList<>(List.of(
                "/bin/sh",
                "-c",
                SCRIPT,
                name,
                String.valueOf(ProcessHandle.current().pid()),
                directory == null ? "" : directory.toString()));
        watched.addAll(command);
        return watched;
    }

    /**
     * Writes an executable script into {@code directory} that runs {@code executable}, with the arguments the script
     * is given, under a watcher of this JVM called {@code name}; once the JVM is gone the watcher deletes
     * {@code directory}, script included. For tools that start a program themselves and only take its path, such as a
     * WebDriver service.
     *
     * @return the script, {@code directory/name}
     */
    public static Path script(String name, Path directory, Path executable) {
        StringBuilder script = new StringBuilder("#!/bin/sh\nexec");
        for (String word : command(name, directory, List.of(executable.toString()))) {
            script.append(' ').append(quoted(word));
        }
        script.append(" \"$@\"\n");
        Path file = directory.resolve(name);
        try {
            Files.writeString(file, script, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write a watcher script for " + executable + " to " + file, e);
        }
        return file;
    }

    /** One word for sh: single quotes keep everything literal; a single quote itself is closed, escaped, reopened. */
    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
