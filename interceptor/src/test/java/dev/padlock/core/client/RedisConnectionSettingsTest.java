package dev.padlock.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.Problems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.config.Config;
import org.redisson.misc.RedisURI;

class RedisConnectionSettingsTest {

    private static final String SECRET = "s3cr3t-Pa55";

    private static List<String> problems(Map<String, String> values) {
        Problems problems = new Problems();
        RedisConnectionReader.read(ConfigView.of(values), problems);
        return problems.list();
    }

    @Test
    void defaultsToALocalSingleServer() {
        Problems problems = new Problems();
        RedisConnectionSettings s = RedisConnectionReader.read(ConfigView.of(Map.of()), problems);
        assertThat(problems.list()).isEmpty();
        Config config = RedissonConfigs.build(s, getClass().getClassLoader());
        assertThat(config.useSingleServer().getAddress()).isEqualTo("redis://127.0.0.1:6379");
        assertThat(config.getLockWatchdogTimeout()).isEqualTo(30_000);
    }

    @Test
    void eachProblemNamesItsKeyAndTheFix() {
        assertThat(problems(Map.of("padlock.redis.address", "localhost:6379")))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.redis.address: 'localhost:6379' needs a scheme");
        assertThat(problems(Map.of("padlock.redis.mode", "galaxy")))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.redis.mode: 'galaxy'");
        assertThat(problems(Map.of("padlock.redis.mode", "cluster")))
                .singleElement()
                .asString()
                .startsWith("Missing padlock.redis.nodes");
        assertThat(problems(Map.of("padlock.redis.mode", "sentinel", "padlock.redis.nodes", "redis://h:26379")))
                .singleElement()
                .asString()
                .startsWith("Missing padlock.redis.sentinel.master-name");
        assertThat(problems(Map.of("padlock.redis.database", "one")))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.redis.database: 'one'");
        assertThat(problems(Map.of("padlock.redis.config-file", "r.yaml", "padlock.redis.address", "redis://h:1")))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.redis.address: padlock.redis.config-file is set too");
        assertThat(problems(Map.of("padlock.watchdog-timeout", "100ms")))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.watchdog-timeout");
    }

    @Test
    void thePasswordNeverShowsInMessagesOrToString() {
        List<String> problems = problems(Map.of("padlock.redis.address", "redis://user:" + SECRET + "@:x"));
        assertThat(problems)
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p).doesNotContain(SECRET).contains("***"));
        assertThat(problems(Map.of("padlock.redis.address", "user:" + SECRET + "@h:1")))
                .singleElement()
                .asString()
                .contains("'***@h:1' needs a scheme")
                .doesNotContain(SECRET);

        Problems none = new Problems();
        RedisConnectionSettings s = RedisConnectionReader.read(
                ConfigView.of(Map.of("padlock.redis.password", SECRET, "padlock.redis.username", "app")), none);
        assertThat(none.list()).isEmpty();
        assertThat(s.toString()).doesNotContain(SECRET).contains("password set");
        assertThat(s.describe()).doesNotContain(SECRET);
        assertThat(RedissonConfigs.build(s, getClass().getClassLoader()).getPassword())
                .isEqualTo(SECRET);
    }

    @Test
    void clusterAndSentinelConfigsCarryTheirNodes() {
        Problems problems = new Problems();
        Config cluster = RedissonConfigs.build(
                RedisConnectionReader.read(
                        ConfigView.of(Map.of(
                                "padlock.redis.mode", "cluster", "padlock.redis.nodes", "redis://a:1, redis://b:2")),
                        problems),
                getClass().getClassLoader());
        assertThat(cluster.useClusterServers().getNodeAddresses()).containsExactly("redis://a:1", "redis://b:2");
        Config sentinel = RedissonConfigs.build(
                RedisConnectionReader.read(
                        ConfigView.of(Map.of(
                                "padlock.redis.mode", "sentinel",
                                "padlock.redis.nodes", "redis://s:26379",
                                "padlock.redis.sentinel.master-name", "mymaster",
                                "padlock.redis.database", "2")),
                        problems),
                getClass().getClassLoader());
        assertThat(sentinel.useSentinelServers().getMasterName()).isEqualTo("mymaster");
        assertThat(sentinel.useSentinelServers().getDatabase()).isEqualTo(2);
        assertThat(problems.list()).isEmpty();
    }

    @Test
    void aMissingConfigFileIsADeploymentProblem() {
        Problems problems = new Problems();
        RedisConnectionSettings s = RedisConnectionReader.read(
                ConfigView.of(Map.of("padlock.redis.config-file", "nowhere.yaml")), problems);
        RedissonConfigs.checkFile(s, getClass().getClassLoader(), problems);
        assertThat(problems.list())
                .singleElement()
                .asString()
                .startsWith(
                        "Invalid padlock.redis.config-file: 'nowhere.yaml' is neither a file nor a class-path resource");
    }

    @Test
    void hostNamesWithUnderscoresAreAddresses() {
        // Docker Compose service names; java.net.URI has no host for them, Redisson's parser has.
        Problems problems = new Problems();
        Config single = RedissonConfigs.build(
                RedisConnectionReader.read(
                        ConfigView.of(Map.of("padlock.redis.address", "redis://redis_master:6379")), problems),
                getClass().getClassLoader());
        Config cluster = RedissonConfigs.build(
                RedisConnectionReader.read(
                        ConfigView.of(Map.of(
                                "padlock.redis.mode", "cluster",
                                "padlock.redis.nodes",
                                        "redis://redis_node_1:7000, rediss://app:pw@redis_node_2.local:7001")),
                        problems),
                getClass().getClassLoader());
        assertThat(problems.list()).isEmpty();
        assertThat(single.useSingleServer().getAddress()).isEqualTo("redis://redis_master:6379");
        assertThat(cluster.useClusterServers().getNodeAddresses())
                .containsExactly("redis://redis_node_1:7000", "rediss://app:pw@redis_node_2.local:7001");
        RedisURI parsed = new RedisURI(single.useSingleServer().getAddress());
        assertThat(parsed.getHost()).isEqualTo("redis_master");
        assertThat(parsed.getPort()).isEqualTo(6379);
    }

    @Test
    void anUnderscoreDoesNotMakeABrokenAddressValid() {
        for (String bad : new String[] {
            "redis://redis_master",
            "redis://redis_master:",
            "redis://redis_master:x1",
            "redis://:6379",
            "redis://redis_master:99999",
            "redis://redis master:6379",
            "redis://a..b_c:6379"
        }) {
            assertThat(problems(Map.of("padlock.redis.address", bad)))
                    .as(bad)
                    .singleElement()
                    .asString()
                    .startsWith("Invalid padlock.redis.address: '" + bad + "'");
        }
    }

    @Test
    void aYamlSyntaxErrorGivesLineAndColumnButNeverTheFileContent(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("redisson.yaml");
        Files.writeString(
                yaml, "singleServerConfig:\n  address: \"redis://127.0.0.1:6379\"\n  password: " + SECRET + ": oops\n");
        Problems problems = new Problems();
        RedisConnectionSettings s = RedisConnectionReader.read(
                ConfigView.of(Map.of("padlock.redis.config-file", yaml.toString())), problems);
        RedissonConfigs.checkFile(s, getClass().getClassLoader(), problems);
        assertThat(problems.list())
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.redis.config-file: '" + yaml + "' is not valid YAML at line 3, column")
                .doesNotContain(SECRET, "oops");
        assertThatChainOf(() -> RedissonConfigs.build(s, getClass().getClassLoader()));
    }

    @Test
    void aValueRedissonCannotTakeGivesLineAndColumnButNeverTheValue(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("redisson.yaml");
        Files.writeString(
                yaml, "singleServerConfig:\n  address: \"redis://127.0.0.1:6379\"\n  database: " + SECRET + "\n");
        Problems problems = new Problems();
        RedisConnectionSettings s = RedisConnectionReader.read(
                ConfigView.of(Map.of("padlock.redis.config-file", yaml.toString())), problems);
        RedissonConfigs.checkFile(s, getClass().getClassLoader(), problems);
        assertThat(problems.list())
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.redis.config-file: '" + yaml + "'")
                .contains("line 3, column")
                .doesNotContain(SECRET);
        assertThatChainOf(() -> RedissonConfigs.build(s, getClass().getClassLoader()));
    }

    /** Neither the message nor any cause of what the call throws holds the secret. */
    private static void assertThatChainOf(Runnable call) {
        Throwable thrown = null;
        try {
            call.run();
        } catch (RuntimeException e) {
            thrown = e;
        }
        assertThat(thrown).isNotNull();
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            assertThat(t.toString()).doesNotContain(SECRET);
        }
    }

    @Test
    void anExplicitWatchdogTimeoutWinsOverTheFilesAndTheFilesWinsOverTheDefault(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("redisson.yaml");
        Files.writeString(
                yaml, "lockWatchdogTimeout: 7000\nsingleServerConfig:\n  address: \"redis://127.0.0.1:6379\"\n");
        ClassLoader loader = getClass().getClassLoader();
        Problems problems = new Problems();
        Config fromFile = RedissonConfigs.build(
                RedisConnectionReader.read(
                        ConfigView.of(Map.of("padlock.redis.config-file", yaml.toString())), problems),
                loader);
        Config explicit = RedissonConfigs.build(
                RedisConnectionReader.read(
                        ConfigView.of(Map.of(
                                "padlock.redis.config-file", yaml.toString(), "padlock.watchdog-timeout", "11s")),
                        problems),
                loader);
        Config neither = RedissonConfigs.build(RedisConnectionReader.read(ConfigView.of(Map.of()), problems), loader);
        assertThat(problems.list()).isEmpty();
        assertThat(fromFile.getLockWatchdogTimeout()).isEqualTo(7_000);
        assertThat(explicit.getLockWatchdogTimeout()).isEqualTo(11_000);
        assertThat(neither.getLockWatchdogTimeout()).isEqualTo(30_000);
    }

    @Test
    void theFilesWatchdogTimeoutIsCheckedLikeTheKeyUnlessTheKeyOverridesIt(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("redisson.yaml");
        Files.writeString(
                yaml, "lockWatchdogTimeout: 100\nsingleServerConfig:\n  address: \"redis://127.0.0.1:6379\"\n");
        Problems problems = new Problems();
        RedissonConfigs.checkFile(
                RedisConnectionReader.read(
                        ConfigView.of(Map.of("padlock.redis.config-file", yaml.toString())), problems),
                getClass().getClassLoader(),
                problems);
        assertThat(problems.list())
                .singleElement()
                .asString()
                .startsWith("Invalid lockWatchdogTimeout in padlock.redis.config-file '" + yaml + "': 100 ms is under"
                        + " 1s")
                .contains("padlock.watchdog-timeout");

        Problems overridden = new Problems();
        RedissonConfigs.checkFile(
                RedisConnectionReader.read(
                        ConfigView.of(Map.of(
                                "padlock.redis.config-file", yaml.toString(), "padlock.watchdog-timeout", "30s")),
                        overridden),
                getClass().getClassLoader(),
                overridden);
        assertThat(overridden.list()).isEmpty();
    }

    @Test
    void namesTheKeysAnApplicationsOwnClientIgnoresButNotTheirValues() {
        assertThat(RedisConnectionSettings.ignoredWithApplicationClient(ConfigView.of(Map.of())))
                .isEmpty();
        assertThat(RedisConnectionSettings.ignoredWithApplicationClient(ConfigView.of(Map.of(
                        "padlock.redis.address",
                        "redis://app:" + SECRET + "@h:1",
                        "padlock.redis.password",
                        SECRET,
                        "padlock.watchdog-timeout",
                        "5s",
                        "padlock.wait-time",
                        "1s"))))
                .hasValueSatisfying(line -> assertThat(line)
                        .contains("padlock.redis.address", "padlock.redis.password", "padlock.watchdog-timeout")
                        .doesNotContain(SECRET, "5s", "padlock.wait-time"));
    }
}
