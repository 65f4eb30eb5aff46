package dev.padlock.examples.ledger;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * The example's WAR with this package's classes added to {@code WEB-INF/classes}: the transaction check then runs
 * in the same deployment, on the same server boot, as the example's own checks.
 */
public final class LedgerWar {

    private static final String PACKAGE = LedgerWar.class.getPackageName().replace('.', '/');

    private LedgerWar() {}

    /** Writes {@code war} plus the ledger classes (from this test's class path) to {@code into}; returns it. */
    public static Path of(Path war, Path into) {
        Path classes = Path.of("target", "test-classes", PACKAGE);
        try {
            Files.createDirectories(into.getParent());
            try (ZipInputStream in = new ZipInputStream(Files.newInputStream(war));
                    ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(into))) {
                for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                    out.putNextEntry(new ZipEntry(entry.getName()));
                    in.transferTo(out);
                    out.closeEntry();
                }
                List<Path> added;
                try (Stream<Path> files = Files.list(classes)) {
                    added = files.filter(f -> f.toString().endsWith(".class"))
                            .sorted()
                            .toList();
                }
                for (Path file : added) {
                    if (file.getFileName().toString().startsWith("LedgerWar")) {
                        continue; // the test's own helper
                    }
                    out.putNextEntry(new ZipEntry("WEB-INF/classes/" + PACKAGE + "/" + file.getFileName()));
                    copy(file, out);
                    out.closeEntry();
                }
            }
            return into;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot add the ledger classes to " + war, e);
        }
    }

    /**
     * Runs the check on a server that deployed such a WAR ({@link LedgerResource}); returns {@code <what the second
     * caller read> <the committed amount>}.
     */
    public static String check(URI app, String release) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(app.resolve("/ledger-check?release=" + release))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .timeout(Duration.ofSeconds(60))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("POST /ledger-check answered " + response.statusCode() + ": " + response.body());
        }
        return response.body().trim();
    }

    private static void copy(Path file, OutputStream out) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            in.transferTo(out);
        }
    }
}
