package dev.padlock.examples.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Starts the two example applications as separate JVMs on free ports, both pointed at one Redis with the same
 * {@code padlock.redis.address} key. Each is ready once {@code GET /stock/readiness} answers, which also proves it
 * reaches Redis.
 */
public final class InventoryApps {

    private static final String READINESS = "stock/readiness";

    private InventoryApps() {}

    /** The Quarkus example, packaged: {@code java -jar target/quarkus-app/quarkus-run.jar}. */
    public static RunningApp startQuarkus(
            Path quarkusRunJar, String name, String redisUri, Path logDirectory, Map<String, String> properties) {
        int port = FreePort.find();
        RunningApp.Launch launch = RunningApp.jar(quarkusRunJar)
                .name(name)
                .logDirectory(logDirectory)
                .systemProperty("padlock.redis.address", redisUri)
                .systemProperty("quarkus.http.port", port)
                .systemProperty("quarkus.http.host", "127.0.0.1")
                .readiness(READINESS, Duration.ofMinutes(2));
        properties.forEach(launch::systemProperty);
        return launch.start(port);
    }

    /**
     * The Payara example's WAR on Payara Micro: {@code java -jar payara-micro.jar --nocluster --port P --contextroot
     * / --deploy app.war}, with its files under {@code <logDirectory>/<name>-root}, emptied first: Payara Micro
     * redeploys whatever an earlier run left in its root directory. Payara reads {@code padlock.redis.address} from
     * the system properties through MicroProfile Config.
     */
    public static RunningApp startPayara(
            Path payaraMicroJar,
            Path war,
            String name,
            String redisUri,
            Path logDirectory,
            Map<String, String> properties) {
        int port = FreePort.find();
        Path root = logDirectory.resolve(name + "-root").toAbsolutePath();
        deleteRecursively(root);
        RunningApp.Launch launch = RunningApp.jar(payaraMicroJar)
                .name(name)
                .logDirectory(logDirectory)
                .systemProperty("padlock.redis.address", redisUri)
                .arguments(
                        "--nocluster",
                        "--port",
                        port,
                        "--rootdir",
                        root,
                        "--contextroot",
                        "/",
                        "--deploy",
                        war.toAbsolutePath())
                .readiness(READINESS, Duration.ofMinutes(3));
        properties.forEach(launch::systemProperty);
        return launch.start(port);
    }

    private static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot empty " + directory, e);
        }
    }
}
