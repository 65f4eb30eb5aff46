package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.redisserver.RespConnection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisProxyInjectionTest {
    private static RedisProxy fromFirstTest;

    private RedisProxy fromBeforeEach;

    @BeforeEach
    void rememberProxy(RedisProxy proxy) {
        fromBeforeEach = proxy;
    }

    @Test
    @Order(1)
    void testAndItsBeforeEachShareOneProxyToTheClassServer(RedisProxy proxy, RedisServer redis) throws Exception {
        fromFirstTest = proxy;
        proxy.cut();

        assertThat(proxy).isSameAs(fromBeforeEach);
        assertThat(proxy.toString()).contains(":" + redis.port());
    }

    @Test
    @Order(2)
    void nextTestGetsANewProxyAndThePreviousOneIsClosed(RedisProxy proxy) throws Exception {
        assertThat(fromFirstTest).isNotNull();
        assertThat(proxy).isNotSameAs(fromFirstTest);
        RedisProxyTest.assertRefusesConnections(fromFirstTest.port());

        try (RespConnection client = RedisProxyTest.open(proxy)) {
            assertThat(client.send("PING")).isEqualTo("PONG");
        }
    }
}
