package dev.padlock.examples.inventory;

import dev.padlock.examples.load.FreePort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of the test's own: {@code initdb} in a temporary directory, {@code pg_ctl start} on a free port
 * of 127.0.0.1 (never the machine's own server), {@code pg_ctl stop} and the directory removed on {@link #close()},
 * or at the latest when this JVM exits. Durability is off ({@code fsync}, {@code synchronous_commit}): the tests need
 * transactions, not crash safety.
 *
 * <p>The server programs are taken from {@code -Dinventory.postgres.bin}, else the newest {@code
 * /usr/lib/postgresql/<version>/bin}, else the {@code PATH}. PostgreSQL refuses to run as root: as root the programs
 * run as the {@code postgres} user (which Debian's package creates) through {@code runuser}.
 */
final class PostgresServer implements AutoCloseable {

    static final String USER = "inventory";
    private static final String DATABASE = "postgres";
    private static final String OS_USER = "postgres";

    private final Path bin;
    private final Path directory;
    private final boolean asRoot;
    private final int port;
    private final Thread stopAtExit = new Thread(this::stop, "postgres-stopper");

    private PostgresServer(Path bin, Path directory, boolean asRoot, int port) {
        this.bin = bin;
        this.directory = directory;
        this.asRoot = asRoot;
        this.port = port;
    }

    static PostgresServer start() {
        Path bin = binaries();
        boolean asRoot = "root".equals(System.getProperty("user.name"));
        Path directory;
        try {
            directory = Files.createTempDirectory("padlock-postgres-");
            if (asRoot) {
                UserPrincipal postgres;
                try {
                    postgres = directory
                            .getFileSystem()
                            .getUserPrincipalLookupService()
                            .lookupPrincipalByName(OS_USER);
                } catch (IOException e) {
                    throw new IllegalStateException("PostgreSQL refuses to run as root, and there is no '" + OS_USER
                            + "' user to run it as: run the tests as another user, or create that user"
                            + " (Debian's postgresql package does)");
                }
                Files.setOwner(directory, postgres);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare a directory for PostgreSQL", e);
        }
        PostgresServer server = null;
        try {
            run(
                    bin,
                    asRoot,
                    directory,
                    "initdb",
                    "-D",
                    data(directory).toString(),
                    "-U",
                    USER,
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync");
            // A free port may be taken before the server binds it: try a few.
            for (int attempt = 1; ; attempt++) {
                server = new PostgresServer(bin, directory, asRoot, FreePort.find());
                try {
                    server.pgCtlStart();
                    break;
                } catch (IllegalStateException e) {
                    if (attempt == 3) {
                        throw e;
                    }
                }
            }
            Runtime.getRuntime().addShutdownHook(server.stopAtExit);
            return server;
        } catch (RuntimeException | Error e) {
            if (server != null) {
                server.stop();
            }
            deleteRecursively(directory);
            throw e;
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException exiting) {
            // The hook runs anyway.
        }
        stop();
    }

    private void pgCtlStart() {
        run(
                bin,
                asRoot,
                directory,
                "pg_ctl",
                "-D",
                data(directory).toString(),
                "-l",
                directory.resolve("postgres.log").toString(),
                "-w",
                "-t",
                "60",
                "-o",
                "-p " + port + " -k " + directory + " -c listen_addresses=127.0.0.1 -c fsync=off"
                        + " -c synchronous_commit=off -c full_page_writes=off",
                "start");
    }

    private synchronized void stop() {
        if (!Files.isDirectory(data(directory))) {
            return;
        }
        try {
            run(bin, asRoot, directory, "pg_ctl", "-D", data(directory).toString(), "-m", "immediate", "-w", "stop");
        } catch (IllegalStateException notRunning) {
            // Never started, or already gone: nothing to stop.
        } finally {
            deleteRecursively(directory);
        }
    }

    private static Path data(Path directory) {
        return directory.resolve("data");
    }

    private static void run(Path bin, boolean asRoot, Path directory, String program, String... arguments) {
        List<String> command = new ArrayList<>();
        if (asRoot) {
            command.addAll(List.of("runuser", "-u", OS_USER, "--"));
        }
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(arguments));
        Path output = directory.resolve(program + ".out");
        try {
            Process process = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within 2 minutes");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed with status " + process.exitValue()
                        + ":\n" + tail(output) + "\n" + tail(directory.resolve("postgres.log")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, e);
        }
    }

    /** Where initdb and pg_ctl are, or a failure saying how to get them. */
    private static Path binaries() {
        String configured = System.getProperty("inventory.postgres.bin");
        if (configured != null) {
            Path bin = Path.of(configured);
            if (!Files.isExecutable(bin.resolve("initdb")) || !Files.isExecutable(bin.resolve("pg_ctl"))) {
                throw new IllegalStateException(
                        "-Dinventory.postgres.bin=" + configured + " holds no initdb and pg_ctl");
            }
            return bin;
        }
        Optional<Path> debian = Optional.empty();
        Path versions = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(versions)) {
            try (Stream<Path> installed = Files.list(versions)) {
                debian = installed
                        .map(version -> version.resolve("bin"))
                        .filter(bin -> Files.isExecutable(bin.resolve("initdb")))
                        .max(Comparator.comparing(
                                bin -> bin.getParent().getFileName().toString(),
                                Comparator.comparing(String::length).thenComparing(Comparator.naturalOrder())));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return debian.or(PostgresServer::onPath)
                .orElseThrow(() -> new IllegalStateException("The native integration tests keep the stock in"
                        + " PostgreSQL (H2 cannot be in a native image), and PostgreSQL's server programs (initdb,"
                        + " pg_ctl) were found neither in /usr/lib/postgresql/<version>/bin nor on the PATH: install"
                        + " them (Debian: apt-get install postgresql), or point -Dinventory.postgres.bin at their"
                        + " folder"));
    }

    private static Optional<Path> onPath() {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, "initdb"))) {
                return Optional.of(Path.of(folder));
            }
        }
        return Optional.empty();
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot remove " + directory, e);
        }
    }
}
