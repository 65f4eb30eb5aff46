package dev.padlock.benchmarks;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The parent's handle on one {@link MultiJvmWorker}: a JVM started from this one's jar with this one's heap and GC
 * flags, commanded line by line. No child outlives the suite: {@link #close} ends it (politely, then by force), a
 * shutdown hook ends any still alive when the parent exits another way (Ctrl-C, an uncaught error), and a child
 * whose stdin closes (the parent killed outright) quits by itself.
 */
final class ChildJvm implements AutoCloseable {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            for (Process p : LIVE) {
                                p.destroyForcibly();
                            }
                            for (Process p : LIVE) {
                                try {
                                    p.waitFor(5, TimeUnit.SECONDS);
                                } catch (InterruptedException e) {
                                    return;
                                }
                            }
                        },
                        "padlock-bench-child-reaper"));
    }

    /** Put on the queue by the reader when the child's stdout ends. */
    private static final String END = new String("end of output");

    private static final int STDERR_LINES_SHOWN = 60;

    private final String name;
    private final Process process;
    private final BufferedWriter commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final Path stderr;
    private boolean quitAsked;

    private ChildJvm(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.commands = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader out = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = out.readLine()) != null; ) {
                            answers.add(line);
                        }
                    } catch (IOException e) {
                        // the child is gone: END below says so
                    } finally {
                        answers.add(END);
                    }
                },
                "padlock-bench-" + name.replace(' ', '-') + "-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} of this JVM's class path in a new JVM; its stderr goes to a temporary file. */
    static ChildJvm start(String name, String mainClass, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The same heap and collector as the parent (benchmarks/run fixes the heap), so the rows compare.
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (flag.startsWith("-Xms") || flag.startsWith("-Xmx") || flag.startsWith("-XX:+Use")) {
                command.add(flag);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        Path stderr = Files.createTempFile("padlock-bench-" + name.replace(' ', '-') + "-", ".log");
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectError(stderr.toFile())
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .redirectOutput(ProcessBuilder.Redirect.PIPE)
                    .start();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(stderr);
            throw e;
        }
        LIVE.add(process);
        return new ChildJvm(name, process, stderr);
    }

    String name() {
        return name;
    }

    void send(String line) {
        try {
            commands.write(line);
            commands.newLine();
            commands.flush();
        } catch (IOException e) {
            throw failure("could not be sent \"" + line + "\" (" + e.getMessage() + ")");
        }
    }

    /**
     * The child's next answer. A child that answers {@code failed ...}, stops answering within {@code timeout} or
     * dies fails the run, with the end of its stderr in the message.
     */
    String answer(Duration timeout) throws InterruptedException {
        String line = answers.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw failure("did not answer within " + timeout.toSeconds() + " s");
        }
        if (line == END) {
            process.waitFor(10, TimeUnit.SECONDS);
            throw failure(process.isAlive() ? "closed its output" : "exited with status " + process.exitValue());
        }
        if (line.startsWith("failed ")) {
            throw failure("failed: " + line.substring("failed ".length()));
        }
        return line;
    }

    private IllegalStateException failure(String what) {
        StringBuilder message = new StringBuilder(name)
                .append(" (pid ")
                .append(process.pid())
                .append(") ")
                .append(what);
        try {
            List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
            message.append("; its stderr:\n");
            // The first lines name the error, the last ones what the child was doing when it ended.
            int shown = Math.min(lines.size(), STDERR_LINES_SHOWN);
            for (int i = 0; i < lines.size(); i++) {
                if (i == shown / 2 && lines.size() > shown) {
                    message.append("  [... ").append(lines.size() - shown).append(" lines ...]\n");
                    i = lines.size() - shown / 2;
                }
                message.append("  ").append(lines.get(i)).append('\n');
            }
        } catch (IOException e) {
            message.append("; its stderr could not be read: ").append(e.getMessage());
        }
        return new IllegalStateException(message.toString());
    }

    /**
     * Ends every child of {@code jvms}: all are asked to quit first, so that they close their clients side by side
     * rather than one after the other, then each is waited for (and ended by force if it has not quit within 15 s).
     */
    static void closeAll(List<ChildJvm> jvms) {
        for (ChildJvm jvm : jvms) {
            jvm.askToQuit();
        }
        for (ChildJvm jvm : jvms) {
            jvm.close();
        }
    }

    /** Sends {@code quit} and closes the child's stdin, once; a child already gone is left to {@link #close}. */
    private void askToQuit() {
        if (quitAsked) {
            return;
        }
        quitAsked = true;
        try {
            commands.write("quit");
            commands.newLine();
            commands.close();
        } catch (IOException e) {
            // already gone
        }
    }

    /** Asks the child to quit (it closes its clients), and ends it by force if it has not within 15 s. */
    @Override
    public void close() {
        try {
            askToQuit();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            LIVE.remove(process);
            try {
                Files.deleteIfExists(stderr);
            } catch (IOException e) {
                // a temporary file
            }
        }
    }
}
