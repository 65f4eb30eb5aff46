package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Padlock's own client connects in the background when the application starts, not on the first locked call (on
 * the caller's thread, possibly an event loop). A Redis of its own, so that only this application's connections
 * are counted.
 */
class ConnectsAtStartupOnQuarkusTest {

    private static final String PROPERTY = "padlock.quarkus-tests.redis.startup";

    /** Shared through a system property: the class is loaded by JUnit's and by Quarkus's class loader. */
    static synchronized String uri() {
        String uri = System.getProperty(PROPERTY);
        if (uri == null) {
            RedisServer server = Redis.startServer();
            uri = server.uri();
            System.setProperty(PROPERTY, uri);
        }
        return uri;
    }

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Work.class))
            .overrideConfigKey("padlock.redis.address", uri());

    @ApplicationScoped
    public static class Work {
        @Locked("never-called")
        public String run() {
            return "ran";
        }
    }

    /** CLIENT LIST on a fresh connection (a bulk-string reply). */
    private static String clientList(java.net.URI address) throws java.io.IOException {
        try (java.net.Socket socket = new java.net.Socket(address.getHost(), address.getPort())) {
            socket.getOutputStream().write("*2\r\n$6\r\nCLIENT\r\n$4\r\nLIST\r\n".getBytes());
            java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
            StringBuilder header = new StringBuilder();
            for (int c = in.read(); c != '\r'; c = in.read()) {
                header.append((char) c);
            }
            in.read(); // \n
            byte[] body = new byte[Integer.parseInt(header.substring(1))];
            in.readFully(body);
            return new String(body, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void padlocksClientIsConnectedBeforeTheFirstCall() throws Exception {
        java.net.URI address = java.net.URI.create(uri());
        long others = 0;
        for (int i = 0; i < 200 && others == 0; i++) { // connecting takes a moment, in the background
            Thread.sleep(50);
            String clients = clientList(address);
            others = Arrays.stream(clients.split("\n"))
                    .filter(line -> line.startsWith("id="))
                    .filter(line -> !line.contains("cmd=client|list"))
                    .count();
        }
        assertThat(others)
                .as("connections of the application to Redis, before any locked call")
                .isPositive();
    }
}
