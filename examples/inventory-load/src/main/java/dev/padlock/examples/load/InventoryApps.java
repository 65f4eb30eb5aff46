package dev.padlock.examples.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Starts the example applications as separate JVMs on free ports, all pointed at one Redis with the same
 * {@code padlock.redis.address} key. Each is ready once {@code GET /stock/readiness} answers, which also proves it
 * reaches Redis.
 */
public final class InventoryApps {

    private static final String READINESS = "stock/readiness";

    private InventoryApps() {}

    /**
     * The Quarkus example, packaged: {@code java -jar target/quarkus-app/quarkus-run.jar}, or, given a file that is not
     * a jar, that native executable ({@code target/*-runner}, built with {@code -Dnative}).
     */
    public static RunningApp startQuarkus(
            Path quarkusApp, String name, String redisUri, Path logDirectory, Map<String, String> properties) {
        int port = FreePort.find();
        RunningApp.Launch launch = (quarkusApp.toString().endsWith(".jar")
                        ? RunningApp.jar(quarkusApp)
                        : RunningApp.executable(quarkusApp))
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

    /** The name of a WildFly run's management port, for {@link RunningApp#uri(String)}: MicroProfile Health is there. */
    public static final String MANAGEMENT = "management";

    /**
     * The Payara example's WAR on WildFly, started as its documentation says ({@code bin/standalone.sh -c
     * standalone-microprofile.xml}), with a server base directory of its own under {@code <logDirectory>/<name>-base},
     * emptied first: a fresh copy of the distribution's {@code standalone/configuration}, and the WAR in its
     * {@code deployments} as {@code ROOT.war}, so that it serves at {@code /} like the other examples. Every port the
     * configuration binds is set to a free one (HTTP, HTTPS, management; AJP and management HTTPS too, though this
     * configuration opens neither), so nothing in the distribution changes and runs do not collide. WildFly reads
     * {@code padlock.redis.address} from the system properties through MicroProfile Config.
     */
    public static RunningApp startWildFly(
            Path wildFlyHome,
            Path war,
            String name,
            String redisUri,
            Path logDirectory,
            Map<String, String> properties) {
        int port = FreePort.find();
        int management = FreePort.find();
        Path base = logDirectory.resolve(name + "-base").toAbsolutePath();
        deleteRecursively(base);
        copyRecursively(wildFlyHome.resolve("standalone/configuration"), base.resolve("configuration"));
        try {
            Files.createDirectories(base.resolve("deployments"));
            Files.copy(war, base.resolve("deployments/ROOT.war"));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot deploy " + war + " to " + base, e);
        }
        RunningApp.Launch launch = RunningApp.script(wildFlyHome.resolve("bin/standalone.sh"))
                .name(name)
                .logDirectory(logDirectory)
                // The script starts the JVM in the background and hands SIGTERM on to it, so closing stops WildFly
                // gracefully; without it the script dies alone and leaves the server to the forced kill.
                .environment("LAUNCH_JBOSS_IN_BACKGROUND", "true")
                .environment("JBOSS_HOME", wildFlyHome.toAbsolutePath())
                .environment("JAVA", RunningApp.java())
                .arguments("-c", "standalone-microprofile.xml")
                .systemProperty("jboss.server.base.dir", base)
                .systemProperty("jboss.bind.address", "127.0.0.1")
                .systemProperty("jboss.bind.address.management", "127.0.0.1")
                .systemProperty("jboss.http.port", port)
                .systemProperty("jboss.https.port", FreePort.find())
                .systemProperty("jboss.ajp.port", FreePort.find())
                .systemProperty("jboss.management.http.port", management)
                .systemProperty("jboss.management.https.port", FreePort.find())
                .systemProperty("padlock.redis.address", redisUri)
                .port(MANAGEMENT, management)
                .readiness(READINESS, Duration.ofMinutes(3));
        properties.forEach(launch::systemProperty);
        return launch.start(port);
    }

    /**
     * The Payara example's WAR on Open Liberty, started as its documentation says ({@code bin/server run
     * inventory}), with a user directory of its own under {@code <logDirectory>/<name>-usr}, emptied first: a server
     * {@code inventory} whose {@code server.xml} enables the features the WAR uses (Jakarta REST, JSON-B, CDI,
     * MicroProfile Config and Health), listens on a free HTTP port only, and serves the WAR from its {@code apps} folder
     * at {@code /}. The system properties, {@code padlock.redis.address} among them, go into the server's
     * {@code jvm.options}; Open Liberty reads them through MicroProfile Config.
     */
    public static RunningApp startOpenLiberty(
            Path libertyHome,
            Path war,
            String name,
            String redisUri,
            Path logDirectory,
            Map<String, String> properties) {
        int port = FreePort.find();
        Path userDirectory = logDirectory.resolve(name + "-usr").toAbsolutePath();
        deleteRecursively(userDirectory);
        Path server = userDirectory.resolve("servers/inventory");
        Map<String, String> systemProperties = new TreeMap<>(properties);
        systemProperties.put("padlock.redis.address", redisUri);
        try {
            Files.createDirectories(server.resolve("apps"));
            Files.copy(war, server.resolve("apps/inventory.war"));
            Files.writeString(server.resolve("server.xml"), libertyServerXml(port));
            Files.write(
                    server.resolve("jvm.options"),
                    systemProperties.entrySet().stream()
                            .map(property -> "-D" + property.getKey() + "=" + property.getValue())
                            .toList());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare the Open Liberty server in " + server, e);
        }
        return RunningApp.script(libertyHome.resolve("bin/server"))
                .name(name)
                .logDirectory(logDirectory)
                .environment("WLP_USER_DIR", userDirectory)
                .environment("JAVA_HOME", System.getProperty("java.home"))
                .arguments("run", "inventory")
                .readiness(READINESS, Duration.ofMinutes(3))
                .start(port);
    }

    private static String libertyServerXml(int port) {
        return String.join(
                "\n",
                "<server description=\"Padlock's inventory example\">",
                "  <featureManager>",
                "    <feature>cdi-4.0</feature>",
                "    <feature>restfulWS-3.1</feature>",
                "    <feature>jsonb-3.0</feature>",
                "    <feature>mpConfig-3.1</feature>",
                "    <feature>mpHealth-4.0</feature>",
                "  </featureManager>",
                "  <httpEndpoint id=\"defaultHttpEndpoint\" host=\"127.0.0.1\" httpPort=\"" + port
                        + "\" httpsPort=\"-1\"/>",
                "  <webApplication location=\"inventory.war\" contextRoot=\"/\"/>",
                "</server>",
                "");
    }

    private static void copyRecursively(Path from, Path to) {
        try (Stream<Path> paths = Files.walk(from)) {
            Files.createDirectories(to.getParent());
            for (Path path : paths.toList()) {
                Files.copy(path, to.resolve(from.relativize(path).toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy " + from + " to " + to, e);
        }
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
