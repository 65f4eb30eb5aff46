package dev.padlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.redisson.config.Config;

class RedisConnectionSettingsTest {

    private static final String SECRET = "s3cr3t-Pa55";

    private static List<String> problems(Map<String, String> values) {
        List<String> problems = new ArrayList<>();
        RedisConnectionSettings.read(ConfigView.of(values), problems);
        return problems;
    }

    @Test
    void defaultsToALocalSingleServer() {
        List<String> problems = new ArrayList<>();
        RedisConnectionSettings s = RedisConnectionSettings.read(ConfigView.of(Map.of()), problems);
        assertThat(problems).isEmpty();
        Config config = s.toRedissonConfig(getClass().getClassLoader());
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

        List<String> none = new ArrayList<>();
        RedisConnectionSettings s = RedisConnectionSettings.read(
                ConfigView.of(Map.of("padlock.redis.password", SECRET, "padlock.redis.username", "app")), none);
        assertThat(none).isEmpty();
        assertThat(s.toString()).doesNotContain(SECRET).contains("password set");
        assertThat(s.describe()).doesNotContain(SECRET);
        assertThat(s.toRedissonConfig(getClass().getClassLoader()).getPassword())
                .isEqualTo(SECRET);
    }

    @Test
    void clusterAndSentinelConfigsCarryTheirNodes() {
        List<String> problems = new ArrayList<>();
        Config cluster = RedisConnectionSettings.read(
                        ConfigView.of(Map.of(
                                "padlock.redis.mode", "cluster", "padlock.redis.nodes", "redis://a:1, redis://b:2")),
                        problems)
                .toRedissonConfig(getClass().getClassLoader());
        assertThat(cluster.useClusterServers().getNodeAddresses()).containsExactly("redis://a:1", "redis://b:2");
        Config sentinel = RedisConnectionSettings.read(
                        ConfigView.of(Map.of(
                                "padlock.redis.mode", "sentinel",
                                "padlock.redis.nodes", "redis://s:26379",
                                "padlock.redis.sentinel.master-name", "mymaster",
                                "padlock.redis.database", "2")),
                        problems)
                .toRedissonConfig(getClass().getClassLoader());
        assertThat(sentinel.useSentinelServers().getMasterName()).isEqualTo("mymaster");
        assertThat(sentinel.useSentinelServers().getDatabase()).isEqualTo(2);
        assertThat(problems).isEmpty();
    }

    @Test
    void aMissingConfigFileIsADeploymentProblem() {
        List<String> problems = new ArrayList<>();
        RedisConnectionSettings s = RedisConnectionSettings.read(
                ConfigView.of(Map.of("padlock.redis.config-file", "nowhere.yaml")), problems);
        s.checkConfigFile(getClass().getClassLoader(), problems);
        assertThat(problems)
                .singleElement()
                .asString()
                .startsWith(
                        "Invalid padlock.redis.config-file: 'nowhere.yaml' is neither a file nor a class-path resource");
    }
}
