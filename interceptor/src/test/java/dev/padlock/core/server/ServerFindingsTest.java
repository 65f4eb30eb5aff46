package dev.padlock.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.client.RedisReachability;
import dev.padlock.core.config.UnsafeServerPolicy;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * What the holder of the findings does with them under each {@code padlock.redis.unsafe-server}: says each finding once
 * however often the same server is checked, keeps readiness down only where the setting asks (and there until the
 * first check), and refuses the start-up only under {@code fail}.
 */
class ServerFindingsTest {

    private static final RedisReachability.Result REACHED = new RedisReachability.Result(true, "single [x]", null);

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger(ServerFindings.class.getName());
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void listen() {
        logger.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(handler);
    }

    @Test
    void eachFindingIsSaidOnceAcrossChecksOfTheSameServerAndAgainWhenItChanges() {
        try (RedisServer redis = evicting()) {
            RedissonClient client = ServerCheckTest.client(redis.uri(), null);
            try {
                ServerFindings findings = new ServerFindings(UnsafeServerPolicy.WARN);
                findings.check(client).join();
                findings.check(client).join(); // as after a reconnect to the same server

                assertThat(lines(Level.WARNING))
                        .singleElement()
                        .asString()
                        .contains("maxmemory-policy is volatile-lru", "CONFIG SET maxmemory-policy noeviction")
                        .endsWith("Padlock goes on (padlock.redis.unsafe-server=warn; not-ready would keep readiness"
                                + " down, fail would stop the start-up).");
                assertThat(lines(Level.INFO)).singleElement().asString().contains("keeps locks in memory only");

                redis.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
                findings.check(client).join();

                assertThat(lines(Level.WARNING)).hasSize(2).last().asString().contains("allkeys-lru");
                assertThat(lines(Level.INFO)).as("the notice has not changed").hasSize(1);
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void warnShowsTheFindingsAndStaysReady() {
        try (RedisServer redis = evicting()) {
            ServerFindings findings = new ServerFindings(UnsafeServerPolicy.WARN);
            assertThat(findings.readiness(REACHED).up())
                    .as("before the first check")
                    .isTrue();

            checkOnce(findings, redis);
            ServerFindings.Readiness readiness = findings.readiness(REACHED);

            assertThat(readiness.up()).isTrue();
            assertThat(readiness.data()).containsEntry("address", "single [x]").doesNotContainKey("reason");
            assertThat(String.valueOf(readiness.data().get("findings")))
                    .startsWith("UNSAFE: Redis at " + redis.host() + ":" + redis.port())
                    .contains("maxmemory-policy is volatile-lru", "\nNOTICE: ");
        }
    }

    @Test
    void notReadyIsDownUntilCheckedAndWhileTheServerIsUnsafe() {
        try (RedisServer redis = evicting()) {
            ServerFindings findings = new ServerFindings(UnsafeServerPolicy.NOT_READY);
            ServerFindings.Readiness unchecked = findings.readiness(REACHED);
            assertThat(unchecked.up()).isFalse();
            assertThat(unchecked.data())
                    .containsEntry(
                            "reason",
                            "the server check has not completed yet" + " (padlock.redis.unsafe-server=not-ready)");

            checkOnce(findings, redis);
            ServerFindings.Readiness unsafe = findings.readiness(REACHED);
            assertThat(unsafe.up()).isFalse();
            assertThat(unsafe.data())
                    .containsEntry(
                            "reason",
                            "the Redis server can void locks (see findings), and padlock.redis.unsafe-server=not-ready"
                                    + " keeps readiness down until that is fixed")
                    .containsKey("findings");

            redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            checkOnce(findings, redis);
            ServerFindings.Readiness fixed = findings.readiness(REACHED);
            assertThat(fixed.up()).as("%s", fixed.data()).isTrue();
            assertThat(String.valueOf(fixed.data().get("findings")))
                    .as("a notice stays, and does not count")
                    .startsWith("NOTICE: ")
                    .doesNotContain("UNSAFE");

            RedisReachability.Result unreachable = new RedisReachability.Result(false, "single [x]", "connecting");
            assertThat(findings.readiness(unreachable).data()).containsEntry("reason", "connecting");
        }
    }

    @Test
    void failRefusesTheStartUpOnlyForAnUnsafeServer() {
        try (RedisServer redis = evicting()) {
            ServerFindings fail = new ServerFindings(UnsafeServerPolicy.FAIL);
            checkOnce(fail, redis);
            assertThat(fail.startUpRefusal(CompletableFuture.completedFuture(null)))
                    .hasValueSatisfying(refusal -> assertThat(refusal)
                            .startsWith("Padlock found a Redis server that can void locks, and"
                                    + " padlock.redis.unsafe-server=fail stops the start-up:\n - Redis at ")
                            .contains("maxmemory-policy is volatile-lru")
                            .doesNotContain("keeps locks in memory only")
                            .endsWith("Fix the server, or set padlock.redis.unsafe-server to not-ready or warn to start"
                                    + " anyway."));

            ServerFindings notReady = new ServerFindings(UnsafeServerPolicy.NOT_READY);
            checkOnce(notReady, redis);
            assertThat(notReady.startUpRefusal(new CompletableFuture<>()))
                    .as("not-ready neither waits nor refuses")
                    .isEmpty();

            redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            ServerFindings safe = new ServerFindings(UnsafeServerPolicy.FAIL);
            checkOnce(safe, redis);
            assertThat(safe.startUpRefusal(CompletableFuture.completedFuture(null)))
                    .isEmpty();
        }
    }

    @Test
    void failStartsWhenTheClientCouldNotConnectAndSaysSo() {
        ServerFindings fail = new ServerFindings(UnsafeServerPolicy.FAIL);

        assertThat(fail.startUpRefusal(CompletableFuture.failedFuture(new IllegalStateException("refused"))))
                .isEmpty();
        assertThat(lines(Level.WARNING))
                .singleElement()
                .asString()
                .isEqualTo("Padlock could not check the Redis server before the start-up"
                        + " (padlock.redis.unsafe-server=fail): Padlock's client could not connect. It is checked once"
                        + " reached; readiness stays down until it is found safe.");
        assertThat(fail.readiness(REACHED).up()).isFalse();
    }

    private static RedisServer evicting() {
        RedisServer redis = Redis.startServer();
        redis.command("CONFIG", "SET", "maxmemory", "50mb");
        redis.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
        return redis;
    }

    private static void checkOnce(ServerFindings findings, RedisServer redis) {
        RedissonClient client = ServerCheckTest.client(redis.uri(), null);
        try {
            findings.check(client).join();
        } finally {
            client.shutdown();
        }
    }

    private List<String> lines(Level level) {
        return records.stream()
                .filter(r -> r.getLevel().equals(level))
                .map(LogRecord::getMessage)
                .toList();
    }
}
