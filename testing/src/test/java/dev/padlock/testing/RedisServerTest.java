package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.redisserver.Info;
import dev.padlock.redisserver.RedisReplyException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
class RedisServerTest {

    @Test
    void startedServerAnswersPingOnItsLoopbackPort(RedisServer redis) {
        assertThat(redis.command("PING")).isEqualTo("PONG");
        assertThat(redis.isControllable()).isTrue();
        assertThat(redis.isRunning()).isTrue();
        assertThat(redis.host()).isEqualTo("127.0.0.1");
        assertThat(redis.port()).isNotEqualTo(6379);
        assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
    }

    @Test
    void pidIsTheRedisServerProcessItself(RedisServer redis) throws IOException {
        Map<String, String> server = Info.fields(redis.command("INFO", "server"));
        // Distributions install redis-server as a link to another executable, so compare real files.
        Path binary = RedisSource.detect(RedisSource.Need.SINGLE_NODE).binary().toRealPath();

        assertThat(redis.pid()).isEqualTo(Long.parseLong(server.get("process_id")));
        assertThat(ProcessHandle.of(redis.pid()).flatMap(handle -> handle.info().command()))
                .hasValueSatisfying(command -> assertThat(Path.of(command)).isEqualTo(binary));
    }

    @Test
    void flushAllEmptiesTheServer(RedisServer redis) {
        redis.command("SET", "a", "1");
        redis.command("SET", "b", "2");
        assertThat(redis.command("DBSIZE")).isEqualTo(2L);

        redis.flushAll();

        assertThat(redis.command("DBSIZE")).isEqualTo(0L);
    }

    @Test
    void commandStatsDeltaCountsThreeSetsAsThreeAndLeavesOutInfo(RedisServer redis) {
        CommandStats before = redis.commandStats();
        redis.command("SET", "k1", "v");
        redis.command("SET", "k2", "v");
        redis.command("SET", "k3", "v");
        redis.command("INFO", "memory");

        CommandStats delta = redis.commandStats().minus(before);

        assertThat(delta.calls("set")).isEqualTo(3);
        assertThat(delta.calls("SET")).isEqualTo(3);
        assertThat(delta.calls("info")).isZero();
        assertThat(delta.calls("evalsha")).isZero();
        assertThat(delta.asMap()).containsExactly(Map.entry("set", 3L));
        assertThat(delta.total()).isEqualTo(3);
        assertThat(delta).hasToString("CommandStats{total=3, set=3}");
    }

    @Test
    void commandStatsSnapshotIsSortedAndIncludesInfo(RedisServer redis) {
        redis.command("PING");
        redis.commandStats();

        CommandStats snapshot = redis.commandStats();

        assertThat(snapshot.calls("info")).isPositive();
        assertThat(new java.util.ArrayList<>(snapshot.asMap().keySet())).isSorted();
        assertThat(snapshot.total())
                .isEqualTo(snapshot.asMap().values().stream()
                        .mapToLong(Long::longValue)
                        .sum());
    }

    @Test
    void commandRepliesComeBackAsStringLongListOrNull(RedisServer redis) {
        redis.flushAll();

        assertThat(redis.command("SET", "text", "héllo")).isEqualTo("OK");
        assertThat(redis.command("GET", "text")).isEqualTo("héllo");
        assertThat(redis.command("INCR", "counter")).isEqualTo(1L);
        assertThat(redis.command("RPUSH", "list", "a", "b")).isEqualTo(2L);
        assertThat(redis.command("LRANGE", "list", "0", "-1")).isEqualTo(List.of("a", "b"));
        assertThat(redis.command("GET", "missing")).isNull();
    }

    @Test
    void errorReplyIsThrownAsRedisReplyException(RedisServer redis) {
        redis.command("SET", "text", "not a number");

        assertThatThrownBy(() -> redis.command("INCR", "text"))
                .isInstanceOf(RedisReplyException.class)
                .hasMessageContaining("not an integer");
    }
}
