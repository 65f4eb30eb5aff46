package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each type excludes a second caller while held (wait 0 fails), except READ, which two readers share, and
 * which WRITE excludes.
 */
@ExtendWith(RedisExtension.class)
class LockTypesTest {

    @ApplicationScoped
    public static class Typed {
        @Locked(value = "t-reentrant", waitTime = "0")
        public Object reentrant(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "t-fair", type = LockType.FAIR, waitTime = "0")
        public Object fair(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "t-spin", type = LockType.SPIN, waitTime = "0")
        public Object spin(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "t-fenced", type = LockType.FENCED, waitTime = "0")
        public Object fenced(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "t-rw", type = LockType.READ, waitTime = "0")
        public Object read(Supplier<Object> body) {
            return body.get();
        }

        @Locked(value = "t-rw", type = LockType.WRITE, waitTime = "0")
        public Object write(Supplier<Object> body) {
            return body.get();
        }
    }

    @FunctionalInterface
    interface Call {
        Object run(Typed bean, Supplier<Object> body);
    }

    /** Runs {@code outer} holding its lock in another thread, and {@code inner} while it is held. */
    private static Object whileHeld(Typed bean, Call outer, Call inner) throws Exception {
        return whileHeld(bean, outer, bean, inner);
    }

    /** As above, with {@code inner} called on {@code innerBean}, e.g. of another application. */
    private static Object whileHeld(Typed bean, Call outer, Typed innerBean, Call inner) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> holder = CompletableFuture.supplyAsync(() -> outer.run(bean, () -> {
            entered.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "outer";
        }));
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        try {
            return inner.run(innerBean, () -> "inner ran");
        } catch (RuntimeException e) {
            return e;
        } finally {
            release.countDown();
            holder.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void everyExclusiveTypeExcludesASecondCaller(RedisServer redis) throws Exception {
        Map<String, String> config = Map.of("padlock.redis.address", redis.uri());
        // a caller of another application meets the holder in Redis; one of the same may be kept out before it
        try (Deployment app = Deployment.start(config, Typed.class);
                Deployment other = Deployment.start("other", config, Typed.class)) {
            Typed bean = app.bean(Typed.class);
            Typed otherBean = other.bean(Typed.class);
            Call[] exclusive = {Typed::reentrant, Typed::fair, Typed::spin, Typed::fenced, Typed::write};
            for (Call call : exclusive) {
                assertThat(whileHeld(bean, call, call)).isInstanceOf(LockNotAcquiredException.class);
                assertThat(whileHeld(bean, call, otherBean, call)).isInstanceOf(LockNotAcquiredException.class);
                assertThat(call.run(bean, () -> "free again")).isEqualTo("free again");
                assertThat(call.run(otherBean, () -> "free again")).isEqualTo("free again");
            }
            assertThat(redis.command("KEYS", "padlock:*")).asList().isEmpty();
        }
    }

    @Test
    void readersShareAndAWriterExcludesThem(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Typed.class)) {
            Typed bean = app.bean(Typed.class);
            Call read = Typed::read;
            Call write = Typed::write;
            assertThat(whileHeld(bean, read, read)).isEqualTo("inner ran");
            assertThat(whileHeld(bean, write, read)).isInstanceOf(LockNotAcquiredException.class);
            assertThat(whileHeld(bean, read, write)).isInstanceOf(LockNotAcquiredException.class);
        }
    }

    @Test
    void theNotAcquiredExceptionNamesKeyMethodAndWait(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Typed.class)) {
            Typed bean = app.bean(Typed.class);
            Call reentrant = Typed::reentrant;
            Object failure = whileHeld(bean, reentrant, reentrant);
            assertThat(failure).isInstanceOfSatisfying(LockNotAcquiredException.class, e -> {
                assertThat(e.getLockKey()).isEqualTo("padlock:t-reentrant");
                assertThat(e.getMethod()).endsWith("LockTypesTest$Typed#reentrant(Supplier)");
                assertThat(e.getWaited()).isZero();
                assertThat(e.getMessage()).contains("held by another caller");
                assertThat(e.getStackTrace())
                        .as("contention carries no stack trace")
                        .isEmpty();
            });
            assertThatThrownBy(() -> {
                        throw (RuntimeException) failure;
                    })
                    .isInstanceOf(LockNotAcquiredException.class);
        }
    }
}
