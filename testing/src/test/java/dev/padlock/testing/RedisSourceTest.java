package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RedisSourceTest {
    private static final Path ON_PATH = Paths.get("/opt/bin/redis-server");

    private final Map<String, String> properties = new HashMap<>();
    private final Map<String, String> environment = new HashMap<>();
    private int pathLookups;
    private int containerChecks;

    @Test
    void addressFromPropertyWinsOverBinaryPathAndContainer() {
        properties.put("padlock.test.redis", "redis://redis.example:6380");
        properties.put("padlock.test.redis-server", "/usr/local/bin/redis-server");
        environment.put("PADLOCK_TEST_REDIS", "redis://other:6381");

        RedisSource source = resolve(RedisSource.Need.SINGLE_NODE, pathHas(ON_PATH), runtime(true));

        assertThat(source.kind()).isEqualTo(RedisSource.Kind.ADDRESS);
        assertThat(source.address()).isEqualTo("redis://redis.example:6380");
        assertThat(pathLookups).isZero();
        assertThat(containerChecks).isZero();
    }

    @Test
    void addressFromEnvironmentIsUsedWhenThePropertyIsUnsetOrBlank() {
        properties.put("padlock.test.redis", "  ");
        environment.put("PADLOCK_TEST_REDIS", "redis://from-env:6379");

        RedisSource source = resolve(RedisSource.Need.SINGLE_NODE, pathHas(ON_PATH), runtime(true));

        assertThat(source.kind()).isEqualTo(RedisSource.Kind.ADDRESS);
        assertThat(source.address()).isEqualTo("redis://from-env:6379");
    }

    @Test
    void clusterAndSentinelIgnoreTheAddressAndUseABinary() {
        properties.put("padlock.test.redis", "redis://redis.example:6380");

        for (RedisSource.Need need : new RedisSource.Need[] {RedisSource.Need.CLUSTER, RedisSource.Need.SENTINEL}) {
            RedisSource source = resolve(need, pathHas(ON_PATH), runtime(true));

            assertThat(source.kind()).isEqualTo(RedisSource.Kind.BINARY);
            assertThat(source.binary()).isEqualTo(ON_PATH);
        }
    }

    @Test
    void binaryFromPropertyComesBeforeEnvironmentAndPath() {
        properties.put("padlock.test.redis-server", "/custom/redis-server");
        environment.put("PADLOCK_TEST_REDIS_SERVER", "/env/redis-server");

        RedisSource source = resolve(RedisSource.Need.SINGLE_NODE, pathHas(ON_PATH), runtime(true));

        assertThat(source.kind()).isEqualTo(RedisSource.Kind.BINARY);
        assertThat(source.binary()).isEqualTo(Paths.get("/custom/redis-server"));
        assertThat(pathLookups).isZero();
        assertThat(containerChecks).isZero();
    }

    @Test
    void binaryFromEnvironmentComesBeforePath() {
        environment.put("PADLOCK_TEST_REDIS_SERVER", "/env/redis-server");

        RedisSource source = resolve(RedisSource.Need.SINGLE_NODE, pathHas(ON_PATH), runtime(true));

        assertThat(source.binary()).isEqualTo(Paths.get("/env/redis-server"));
        assertThat(pathLookups).isZero();
    }

    @Test
    void binaryOnThePathIsUsedWhenNothingIsConfiguredWithoutAskingForContainers() {
        RedisSource source = resolve(RedisSource.Need.SINGLE_NODE, pathHas(ON_PATH), runtime(true));

        assertThat(source.kind()).isEqualTo(RedisSource.Kind.BINARY);
        assertThat(source.binary()).isEqualTo(ON_PATH);
        assertThat(source.origin()).contains("PATH");
        assertThat(containerChecks).isZero();
    }

    @Test
    void containerIsTheLastResortForASingleNode() {
        RedisSource source = resolve(RedisSource.Need.SINGLE_NODE, pathHas(null), runtime(true));

        assertThat(source.kind()).isEqualTo(RedisSource.Kind.CONTAINER);
        assertThat(pathLookups).isEqualTo(1);
        assertThat(containerChecks).isEqualTo(1);
    }

    @Test
    void containerImageIsRedis7UnlessAPropertyOrTheEnvironmentNamesAnother() {
        assertThat(RedisSource.containerImage(properties::get, environment::get))
                .isEqualTo("redis:7");
        assertThat(resolve(RedisSource.Need.SINGLE_NODE, pathHas(null), runtime(true))
                        .image())
                .isEqualTo("redis:7");

        environment.put("PADLOCK_TEST_REDIS_IMAGE", "valkey/valkey:8");
        assertThat(RedisSource.containerImage(properties::get, environment::get))
                .isEqualTo("valkey/valkey:8");

        properties.put("padlock.test.redis-image", " registry.local/valkey:8.0 ");
        RedisSource source = resolve(RedisSource.Need.SINGLE_NODE, pathHas(null), runtime(true));
        assertThat(source.image()).isEqualTo("registry.local/valkey:8.0");
        assertThat(source).hasToString("registry.local/valkey:8.0 container through Testcontainers");
    }

    @Test
    void nothingAtAllFailsNamingAllThreeWaysToGetRedis() {
        assertThatThrownBy(() -> resolve(RedisSource.Need.SINGLE_NODE, pathHas(null), runtime(false)))
                .isInstanceOf(NoRedisAvailableException.class)
                .hasMessageContaining("-Dpadlock.test.redis=redis://host:port (or PADLOCK_TEST_REDIS)")
                .hasMessageContaining("install redis-server (apt install redis-server / brew install redis)"
                        + " or point -Dpadlock.test.redis-server=/path/to/redis-server")
                .hasMessageContaining("start Docker so Testcontainers can run redis:7");
    }

    @Test
    void clusterWithOnlyAContainerRuntimeSaysABinaryIsNeeded() {
        properties.put("padlock.test.redis", "redis://redis.example:6380");

        assertThatThrownBy(() -> resolve(RedisSource.Need.CLUSTER, pathHas(null), runtime(true)))
                .isInstanceOf(NoRedisAvailableException.class)
                .hasMessageContaining("a Redis cluster")
                .hasMessageContaining("redis-server binary")
                .hasMessageContaining("-Dpadlock.test.redis-server=/path/to/redis-server")
                .hasMessageContaining("serves only single-node tests");
    }

    private RedisSource resolve(RedisSource.Need need, Supplier<Optional<Path>> path, BooleanSupplier runtime) {
        return RedisSource.resolve(need, properties::get, environment::get, path, runtime);
    }

    private Supplier<Optional<Path>> pathHas(Path binary) {
        return () -> {
            pathLookups++;
            return Optional.ofNullable(binary);
        };
    }

    private BooleanSupplier runtime(boolean answers) {
        return () -> {
            containerChecks++;
            return answers;
        };
    }
}
