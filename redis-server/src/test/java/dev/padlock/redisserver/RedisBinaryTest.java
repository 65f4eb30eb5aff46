package dev.padlock.redisserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisBinaryTest {
    private final RedisBinary binary = TestBinary.find();

    /**
     * padlock-testing announces each binary with {@link RedisBinary#version()}, which is how a test log says whether it
     * ran on Redis or Valkey: it must name the version the started server reports (Valkey reports a Redis version for
     * compatibility beside its own).
     */
    @Test
    void versionNamesTheServerAndTheVersionItReports() throws IOException {
        try (ServerProcess server = ServerProcess.startStandalone(binary)) {
            Map<String, String> info =
                    Info.fields(RespConnection.call(ServerProcess.HOST, server.port(), "INFO", "server"));
            String reported = info.getOrDefault("valkey_version", info.get("redis_version"));
            String name = info.containsKey("valkey_version") ? "Valkey server" : "Redis server";

            assertThat(binary.version()).startsWith(name + " v=" + reported + " ");
        }
    }
}
