package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * While Padlock's client is not connected (here: nothing listens at the address), a call on a Vert.x event loop
 * does not wait for the connection on the loop: with waitTime 0 it is refused at once, saying Redis is not
 * connected yet.
 */
class NotConnectedYetOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Work.class))
            .overrideConfigKey("padlock.redis.address", "redis://127.0.0.1:" + closedPort());

    static final Vertx VERTX = Vertx.vertx();

    @AfterAll
    static void closeVertx() throws Exception {
        VERTX.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** A port nothing listens on (it was free a moment ago). */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ApplicationScoped
    public static class Work {
        @Locked(value = "not-connected", waitTime = "0")
        public Uni<String> uni() {
            return Uni.createFrom().item("ran");
        }
    }

    @Inject
    Work work;

    @Test
    void aCallOnAnEventLoopIsRefusedAtOnceWhileRedisIsNotConnected() throws Exception {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        VERTX.runOnContext(ignored -> work.uni().subscribe().with(outcome::complete, outcome::completeExceptionally));
        Throwable refused = catchThrowable(() -> outcome.get(30, TimeUnit.SECONDS));
        assertThat(refused)
                .hasCauseInstanceOf(LockNotAcquiredException.class)
                .cause()
                .hasMessageContaining("not connected yet");
    }
}
