package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.padlock.redisserver.RespConnection;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** Runs a fixture class on its own, in process, to see what the extension does once the class is over. */
class RedisExtensionLifecycleTest {

    @Test
    void serverOfATestClassIsClosedWhenTheClassEnds() {
        Fixture.server = null;

        TestExecutionSummary summary = run(Fixture.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(summary.getTestsFailedCount()).isZero();
        RedisServer server = Fixture.server;
        assertThat(server).isNotNull();
        assertThat(server.isRunning()).isFalse();
        assertThat(ProcessHandle.of(server.pid()).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
        assertThat(server.process().directory()).doesNotExist();
    }

    @Test
    void proxyOfAFailingTestIsClosedWhenTheTestEnds() throws IOException {
        FailingProxyFixture.proxy = null;

        TestExecutionSummary summary = run(FailingProxyFixture.class);

        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        RedisProxy proxy = FailingProxyFixture.proxy;
        assertThat(proxy).isNotNull();
        try (RespConnection client = FailingProxyFixture.client) {
            assertThatThrownBy(() -> client.send("PING")).isInstanceOfAny(EOFException.class, SocketException.class);
        }
        assertThat(proxy.openConnections()).isZero();
        RedisProxyTest.assertRefusesConnections(proxy.port());
    }

    private static TestExecutionSummary run(Class<?> testClass) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(
                LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectClass(testClass))
                        .build(),
                listener);
        return listener.getSummary();
    }

    /** Only run through {@link #run}: surefire leaves out nested classes. */
    @ExtendWith(RedisExtension.class)
    static class Fixture {
        static volatile RedisServer server;

        @Test
        void usesAServer(RedisServer redis) {
            server = redis;
            assertThat(redis.command("PING")).isEqualTo("PONG");
        }
    }

    /** Only run through {@link #run}: fails on purpose while a client is connected through a cut proxy. */
    @ExtendWith(RedisExtension.class)
    static class FailingProxyFixture {
        static volatile RedisProxy proxy;
        static volatile RespConnection client;

        @Test
        void failsWhileCut(RedisProxy redisProxy) throws Exception {
            proxy = redisProxy;
            client = RedisProxyTest.open(redisProxy);
            redisProxy.cut();
            throw new AssertionError("fails on purpose, leaving the proxy cut and a client connected");
        }
    }
}
