package dev.padlock.benchmarks;

import dev.padlock.testing.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** Where the figures were measured, printed with them. */
final class Machine {

    private Machine() {}

    static String describe(Topology topology) {
        RedisServer redis = topology.master();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return String.format(
                "%s, %d cores, %.0f GiB; %s %s; %s %s (%s); Redisson %s; Redis %s on loopback (%s)",
                cpuModel(),
                Runtime.getRuntime().availableProcessors(),
                os.getTotalMemorySize() / (1024.0 * 1024 * 1024),
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                System.getProperty("java.vm.name"),
                System.getProperty("java.vm.version"),
                ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .filter(a -> a.startsWith("-Xm") || a.startsWith("-XX:+Use"))
                        .reduce((a, b) -> a + " " + b)
                        .orElse("default heap and GC"),
                mavenVersion("org.redisson", "redisson"),
                redisVersion(redis),
                topology.describe());
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the core count below still says something
        }
        return "CPU " + System.getProperty("os.arch");
    }

    private static String redisVersion(RedisServer redis) {
        for (String line : String.valueOf(redis.command("INFO", "server")).split("\r?\n")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).trim();
            }
        }
        return "?";
    }

    private static String mavenVersion(String group, String artifact) {
        String resource = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = Machine.class.getResourceAsStream(resource)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "?");
            }
        } catch (IOException e) {
            // fall through
        }
        return "?";
    }
}
