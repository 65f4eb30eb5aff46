package dev.padlock.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.server.ServerFinding.Severity;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisProxy;
import dev.padlock.testing.RedisServer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.SingleServerConfig;

/**
 * What the server check finds on a real Redis set up each way, asked through a plain Redisson client: each finding
 * names the setting, its value, the node and the fix; a server that keeps locks safely gets none; a refused or
 * unanswered command is a finding, never an exception or a hang.
 */
class ServerCheckTest {

    static final String USER_SECRET = "us3r-Secr3t";

    @Test
    void aMaxmemoryWithVolatileLruCanEvictEveryLock() {
        try (RedisServer redis = Redis.startServer()) {
            redis.command("CONFIG", "SET", "maxmemory", "50mb");
            redis.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");

            ServerFinding eviction = single(check(redis), "maxmemory-policy");

            assertThat(eviction.severity()).isEqualTo(Severity.UNSAFE);
            assertThat(eviction.node()).isEqualTo(redis.host() + ":" + redis.port());
            assertThat(eviction.value()).isEqualTo("volatile-lru");
            assertThat(eviction.message())
                    .contains("Redis at " + redis.host() + ":" + redis.port())
                    .contains("maxmemory-policy is volatile-lru with maxmemory 50.00M")
                    .contains("keys that have a TTL, and every lock has one")
                    .contains("CONFIG SET maxmemory-policy noeviction");
        }
    }

    @Test
    void anAllKeysPolicyCanEvictLocksToo() {
        try (RedisServer redis = Redis.startServer()) {
            redis.command("CONFIG", "SET", "maxmemory", "50mb");
            redis.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");

            ServerFinding eviction = single(check(redis), "maxmemory-policy");

            assertThat(eviction.severity()).isEqualTo(Severity.UNSAFE);
            assertThat(eviction.message()).contains("allkeys-lfu", "deletes any key, locks included");
        }
    }

    /** The controls of the two above: the policy alone, or the limit alone, evicts nothing. */
    @Test
    void noevictionOrNoMaxmemoryEvictsNothing() {
        try (RedisServer redis = Redis.startServer()) {
            redis.command("CONFIG", "SET", "maxmemory", "50mb");
            redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            assertThat(check(redis)).extracting(ServerFinding::setting).doesNotContain("maxmemory-policy");

            redis.command("CONFIG", "SET", "maxmemory", "0");
            redis.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
            assertThat(check(redis)).extracting(ServerFinding::setting).doesNotContain("maxmemory-policy");
        }
    }

    @Test
    void aServerWithoutPersistenceIsANoticeNamingWhatARestartLoses() {
        try (RedisServer redis = Redis.startServer()) { // the harness starts it with save "" and appendonly no
            ServerFinding memoryOnly = single(check(redis), "appendonly");
            assertThat(memoryOnly.severity()).isEqualTo(Severity.NOTICE);
            assertThat(memoryOnly.value()).isEqualTo("no, no save points");
            assertThat(memoryOnly.message())
                    .contains("keeps locks in memory only", "every lock it held is gone", "appendonly yes")
                    .contains("padlock.redis.unsafe-server does not apply");

            redis.command("CONFIG", "SET", "save", "3600 1");
            ServerFinding snapshots = single(check(redis), "appendonly");
            assertThat(snapshots.severity()).isEqualTo(Severity.NOTICE);
            assertThat(snapshots.message()).contains("only in snapshots", "save 3600 1", "since its last snapshot");
        }
    }

    /** The control of every finding: a server that keeps locks safely gets none at all. */
    @Test
    void aServerThatKeepsLocksSafelyGetsNoFinding() {
        try (RedisServer redis = Redis.startServer()) {
            redis.command("CONFIG", "SET", "maxmemory", "50mb");
            redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            redis.command("CONFIG", "SET", "appendonly", "yes");

            assertThat(check(redis)).isEmpty();
        }
    }

    @Test
    void aRefusedConfigGetSaysWhatCouldNotBeCheckedAndHowToAllowIt() {
        try (RedisServer redis = Redis.startServer()) {
            redis.command("ACL", "SETUSER", "locker", "on", ">" + USER_SECRET, "~*", "&*", "+@all", "-config");

            List<ServerFinding> findings = check(redis, "locker");

            ServerFinding unchecked = single(findings, "CONFIG GET save");
            assertThat(unchecked.severity()).isEqualTo(Severity.WARNING);
            assertThat(unchecked.value()).startsWith("NOPERM");
            assertThat(unchecked.message())
                    .contains("could not check whether Redis at " + redis.host() + ":" + redis.port())
                    .contains("saves snapshots", "ACL SETUSER <user> +config|get")
                    .doesNotContain("channel:");
            // INFO is allowed: the rest is still checked
            assertThat(findings).extracting(ServerFinding::setting).doesNotContain("INFO");
            assertThat(findings.toString()).doesNotContain(USER_SECRET);
        }
    }

    @Test
    void aRefusedInfoSaysWhichSettingsCouldNotBeCheckedAndHowToAllowIt() {
        try (RedisServer redis = Redis.startServer()) {
            redis.command("ACL", "SETUSER", "locker", "on", ">" + USER_SECRET, "~*", "&*", "+@all", "-info");

            ServerFinding unchecked = single(check(redis, "locker"), "INFO");

            assertThat(unchecked.severity()).isEqualTo(Severity.WARNING);
            assertThat(unchecked.message())
                    .contains("could not check Redis at " + redis.host() + ":" + redis.port())
                    .contains("maxmemory-policy, appendonly", "NOPERM", "ACL SETUSER <user> +info")
                    .doesNotContain(USER_SECRET, "channel:");
        }
    }

    /** A node that stops answering once connected: the check says so within its bound instead of hanging. */
    @Test
    void aNodeThatDoesNotAnswerIsAFindingNotAHang() {
        try (RedisServer redis = Redis.startServer();
                RedisProxy proxy = RedisProxy.to(redis)) {
            RedissonClient client = client(proxy.uri(), null);
            try {
                proxy.cut();

                ServerFinding unchecked = single(ServerCheck.inspect(client).join(), "INFO");

                assertThat(unchecked.severity()).isEqualTo(Severity.WARNING);
                assertThat(unchecked.value()).isEqualTo("no answer within " + ServerCheck.TIMEOUT.toSeconds() + " s");
            } finally {
                client.shutdown();
            }
        }
    }

    private static List<ServerFinding> check(RedisServer redis) {
        return check(redis, null);
    }

    private static List<ServerFinding> check(RedisServer redis, String user) {
        RedissonClient client = client(redis.uri(), user);
        try {
            return ServerCheck.inspect(client).join();
        } finally {
            client.shutdown();
        }
    }

    static RedissonClient client(String address, String user) {
        Config config = new Config();
        SingleServerConfig single = config.useSingleServer().setAddress(address);
        if (user != null) {
            single.setUsername(user).setPassword(USER_SECRET);
        }
        return Redisson.create(config);
    }

    private static ServerFinding single(List<ServerFinding> findings, String setting) {
        List<ServerFinding> about =
                findings.stream().filter(f -> f.setting().equals(setting)).toList();
        assertThat(about).as("findings about %s in %s", setting, findings).hasSize(1);
        return about.get(0);
    }
}
