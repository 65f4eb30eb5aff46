package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisExtensionTest {
    private static RedisServer fromBeforeAll;
    private static RedisServer fromFirstTest;

    private final RedisServer fromConstructor;
    private RedisServer fromBeforeEach;

    RedisExtensionTest(RedisServer server) {
        this.fromConstructor = server;
    }

    @BeforeAll
    static void rememberServer(RedisServer server) {
        fromBeforeAll = server;
    }

    @BeforeEach
    void rememberServerForEach(RedisServer server) {
        fromBeforeEach = server;
    }

    @Test
    @Order(1)
    void constructorLifecycleMethodsAndTestGetOneServer(RedisServer server) {
        fromFirstTest = server;

        assertThat(server).isSameAs(fromConstructor).isSameAs(fromBeforeEach).isSameAs(fromBeforeAll);
        assertThat(server.isRunning()).isTrue();
    }

    @Test
    @Order(2)
    void secondTestMethodOfTheClassGetsTheSameServer(RedisServer server) {
        assertThat(fromFirstTest).isNotNull();
        assertThat(server).isSameAs(fromFirstTest).isSameAs(fromConstructor);
        assertThat(server.isRunning()).isTrue();
    }

    @Nested
    class NestedTests {
        @Test
        void nestedClassSharesTheOuterClassServer(RedisServer server) {
            assertThat(server).isSameAs(fromBeforeAll);
        }
    }
}
