package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
class RedisMonitorTest {

    private static final String LOCK_SCRIPT = "if (redis.call('exists', KEYS[1]) == 0)"
            + " or (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then"
            + " redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end;"
            + " return redis.call('pttl', KEYS[1]);";

    @Test
    void showsWhatAScriptRanRightAfterTheScriptInServerOrder(RedisServer redis) {
        redis.flushAll();
        try (RedisMonitor monitor = redis.monitor()) {
            redis.command("SET", "before", "1");
            redis.command("EVAL", LOCK_SCRIPT, "1", "lock", "300", "client:1");
            redis.command("EVAL", LOCK_SCRIPT, "1", "lock", "300", "client:2");

            List<RedisMonitor.Command> seen = monitor.sync();

            assertThat(seen)
                    .extracting(command -> (command.fromScript() ? "lua " : "") + String.join(" ", command.args()))
                    .containsExactly(
                            "SET before 1",
                            "EVAL " + LOCK_SCRIPT + " 1 lock 300 client:1",
                            "lua exists lock",
                            "lua hincrby lock client:1 1",
                            "lua pexpire lock 300",
                            "EVAL " + LOCK_SCRIPT + " 1 lock 300 client:2",
                            "lua exists lock",
                            "lua hexists lock client:2",
                            "lua pttl lock");
            assertThat(seen.get(0).name()).isEqualTo("set");
            assertThat(seen.get(0).client()).startsWith("127.0.0.1:");
            assertThat(seen.get(3).arg(2)).isEqualTo("client:1");
            assertThat(seen).extracting(RedisMonitor.Command::micros).isSorted();
        }
    }

    @Test
    void argumentsComeBackAsTheyWereSent(RedisServer redis) {
        String awkward = "quote \" backslash \\ newline \n tab \t é ✓";
        try (RedisMonitor monitor = redis.monitor()) {
            redis.command("SET", "k", awkward);

            assertThat(monitor.sync()).singleElement().satisfies(command -> assertThat(command.args())
                    .containsExactly("SET", "k", awkward));
        }
    }

    @Test
    void syncWaitsForCommandsOfOtherConnectionsAndLeavesItsMarkerOut(RedisServer redis) {
        try (RedisMonitor monitor = redis.monitor()) {
            for (int i = 0; i < 200; i++) {
                redis.command("INCR", "counter");
            }

            assertThat(monitor.sync()).hasSize(200).allSatisfy(command -> assertThat(command.name())
                    .isEqualTo("incr"));
            assertThat(monitor.sync()).as("nothing new, and no marker").hasSize(200);
        }
    }

    @Test
    void closingEndsTheMonitorConnection(RedisServer redis) throws Exception {
        RedisMonitor monitor = redis.monitor();
        assertThat(monitorClients(redis)).isEqualTo(1);

        monitor.close();
        monitor.close(); // idempotent

        for (int i = 0; i < 100 && monitorClients(redis) > 0; i++) {
            Thread.sleep(20);
        }
        assertThat(monitorClients(redis)).isZero();
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(thread -> thread.getName().startsWith("redis-monitor-" + redis.port() + "-"));
    }

    @Test
    void parsesTheLineFormat() {
        RedisMonitor.Command lua =
                RedisMonitor.Command.parse("1795665368.138885 [0 lua] \"hincrby\" \"padlock:x\" \"id:1\" \"1\"");
        assertThat(lua.micros()).isEqualTo(1_795_665_368_138_885L);
        assertThat(lua.db()).isZero();
        assertThat(lua.fromScript()).isTrue();
        assertThat(lua.args()).containsExactly("hincrby", "padlock:x", "id:1", "1");

        RedisMonitor.Command v6 = RedisMonitor.Command.parse("1.000001 [3 [::1]:6000] \"GET\" \"a\\x00\\xc3\\xa9\"");
        assertThat(v6.client()).isEqualTo("[::1]:6000");
        assertThat(v6.db()).isEqualTo(3);
        assertThat(v6.fromScript()).isFalse();
        assertThat(v6.name()).isEqualTo("get");
        assertThat(v6.arg(1)).isEqualTo("a\u0000é");

        assertThatThrownBy(() -> RedisMonitor.Command.parse("OK")).isInstanceOf(IllegalArgumentException.class);
    }

    private static long monitorClients(RedisServer redis) {
        return ((String) redis.command("CLIENT", "LIST"))
                .lines()
                .filter(line -> line.contains(" cmd=monitor") || line.matches(".* flags=\\w*O\\w* .*"))
                .count();
    }
}
