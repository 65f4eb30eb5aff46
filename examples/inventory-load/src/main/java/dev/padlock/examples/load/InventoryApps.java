package dev.padlock.examples.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

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
     * / --deploy app.war}, with its files under {@code <logDirectory>/<name>-root}. Payara reads
     * {@code padlock.redis.address} from the system properties through MicroProfile Config.
     */
    public static RunningApp startPayara(
            Path payaraMicroJar,
            Path war,
            String name,
            String redisUri,
            Path logDirectory,
            Map<String, String> properties) {
        int port = FreePort.find();
        RunningApp.Launch launch = RunningApp.jar(payaraMicroJar)
                .name(name)
                .logDirectory(logDirectory)
                .systemProperty("padlock.redis.address", redisUri)
                .arguments(
                        "--nocluster",
                        "--port",
                        port,
                        "--rootdir",
                        logDirectory.resolve(name + "-root").toAbsolutePath(),
                        "--contextroot",
                        "/",
                        "--deploy",
                        war.toAbsolutePath())
                .readiness(READINESS, Duration.ofMinutes(3));
        properties.forEach(launch::systemProperty);
        return launch.start(port);
    }
}
