package dev.padlock.examples.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An application started as a separate JVM, either directly ({@code java [-Dk=v...] -jar <jar> [args...]}) or by a
 * server's own start script, its output in a log file, ready once a GET of its readiness path answers 200.
 * {@link #close()} stops it and waits until it is gone; a shutdown hook does the same for whatever a failed test
 * leaves running.
 */
public final class RunningApp implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Set<RunningApp> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> RUNNING.forEach(RunningApp::kill), "inventory-apps-reaper"));
    }

    private final String name;
    private final Process process;
    private final URI baseUri;
    private final Map<String, Integer> otherPorts;
    private final Path log;

    private RunningApp(String name, Process process, URI baseUri, Map<String, Integer> otherPorts, Path log) {
        this.name = name;
        this.process = process;
        this.baseUri = baseUri;
        this.otherPorts = Map.copyOf(otherPorts);
        this.log = log;
    }

    /** Describes a JVM started with {@code java -jar}; {@link Launch#start} starts it. */
    public static Launch jar(Path jar) {
        return new Launch(jar, Kind.JAR);
    }

    /**
     * Describes a native executable (a Quarkus application built with {@code -Dnative}), started as {@code <executable>
     * [-Dk=v...] [args...]}: Quarkus reads {@code -D} arguments as system properties.
     */
    public static Launch executable(Path executable) {
        return new Launch(executable, Kind.EXECUTABLE);
    }

    /**
     * Describes a server started by its own shell script, {@code sh <script> [args...] [-Dk=v...]}, which starts the
     * JVM and passes {@code -D} arguments on to it as system properties (WildFly's {@code bin/standalone.sh} does).
     * {@link #close()} sends the script SIGTERM, so it must hand the signal on to the JVM and wait for it, as WildFly's
     * does with {@code LAUNCH_JBOSS_IN_BACKGROUND} set.
     */
    public static Launch script(Path script) {
        return new Launch(script, Kind.SCRIPT);
    }

    private enum Kind {
        JAR,
        SCRIPT,
        EXECUTABLE
    }

    public String name() {
        return name;
    }

    /** The application's root, such as {@code http://127.0.0.1:41234/}. */
    public URI baseUri() {
        return baseUri;
    }

    /** The root of another HTTP port the application serves, named when launched (say, a management port). */
    public URI uri(String port) {
        Integer number = otherPorts.get(port);
        if (number == null) {
            throw new IllegalArgumentException(name + " has no port named " + port + "; it has " + otherPorts.keySet());
        }
        return URI.create("http://127.0.0.1:" + number + "/");
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM, then SIGKILL after a grace period; returns once the process and its children are gone. */
    @Override
    public void close() {
        RUNNING.remove(this);
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        } finally {
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** The last lines of the application's log, for failure messages. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return name + " at " + baseUri + " (log " + log + ")";
    }

    public static final class Launch {
        private final Path executable;
        private final Kind kind;
        private final Map<String, String> systemProperties = new TreeMap<>();
        private final Map<String, String> environment = new TreeMap<>();
        private final Map<String, Integer> otherPorts = new TreeMap<>();
        private final List<String> arguments = new ArrayList<>();
        private String name = "app";
        private Path logDirectory = Path.of("target");
        private String readinessPath = "/";
        private Duration readinessTimeout = Duration.ofMinutes(2);

        private Launch(Path executable, Kind kind) {
            this.executable = executable;
            this.kind = kind;
        }

        public Launch name(String name) {
            this.name = name;
            return this;
        }

        public Launch systemProperty(String key, Object value) {
            systemProperties.put(key, String.valueOf(value));
            return this;
        }

        /** An environment variable of the started process, on top of this JVM's environment. */
        public Launch environment(String key, Object value) {
            environment.put(key, String.valueOf(value));
            return this;
        }

        /** Another port the application serves HTTP on, for {@link RunningApp#uri(String)}. */
        public Launch port(String name, int port) {
            otherPorts.put(name, port);
            return this;
        }

        public Launch arguments(Object... values) {
            for (Object value : values) {
                arguments.add(String.valueOf(value));
            }
            return this;
        }

        public Launch logDirectory(Path directory) {
            this.logDirectory = directory;
            return this;
        }

        /**
         * Ready once a GET of this path (relative to the base URI) answers 200: a server may answer 404 while it is
         * still deploying the application.
         */
        public Launch readiness(String path, Duration timeout) {
            this.readinessPath = path;
            this.readinessTimeout = timeout;
            return this;
        }

        /** Starts the JVM, serving HTTP on {@code port}, and waits until it answers. */
        public RunningApp start(int port) {
            if (!Files.isRegularFile(executable)) {
                throw new IllegalStateException(executable + " does not exist: package the application first"
                        + " (./mvnw verify builds it before the integration tests run; with -Dnative, as a native"
                        + " executable)");
            }
            List<String> command = new ArrayList<>();
            switch (kind) {
                case SCRIPT -> {
                    command.add("/bin/sh");
                    command.add(executable.toString());
                    command.addAll(arguments);
                    systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
                }
                case JAR -> {
                    command.add(java());
                    systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
                    command.add("-jar");
                    command.add(executable.toString());
                    command.addAll(arguments);
                }
                case EXECUTABLE -> {
                    command.add(executable.toAbsolutePath().toString());
                    systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
                    command.addAll(arguments);
                }
            }
            Path logFile = logDirectory.resolve(name + ".log");
            Process process;
            try {
                Files.createDirectories(logDirectory);
                ProcessBuilder builder =
                        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile());
                builder.environment().putAll(environment);
                process = builder.start();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start " + command, e);
            }
            RunningApp app =
                    new RunningApp(name, process, URI.create("http://127.0.0.1:" + port + "/"), otherPorts, logFile);
            RUNNING.add(app);
            try {
                app.awaitReady(readinessPath, readinessTimeout);
            } catch (RuntimeException | Error e) {
                app.close();
                throw e;
            }
            return app;
        }
    }

    /** The {@code java} of this JVM, so an application runs on the JDK the build runs on. */
    public static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private void awaitReady(String path, Duration timeout) {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest probe = HttpRequest.newBuilder(baseUri.resolve(path.startsWith("/") ? path.substring(1) : path))
                .timeout(Duration.ofSeconds(5))
                .GET()
                .build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with status " + process.exitValue()
                        + " before it answered HTTP; last lines of " + log + ":\n" + logTail(40));
            }
            try {
                if (client.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + name, e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not answer 200 to " + probe.uri() + " within " + timeout
                        + "; last lines of " + log + ":\n" + logTail(40));
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + name, e);
            }
        }
    }
}
