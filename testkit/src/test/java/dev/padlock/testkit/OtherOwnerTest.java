package dev.padlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.OnFailure;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link OtherOwner} holds a key of an application on Weld as another application would: the application's calls
 * on it are not acquired (THROW and SKIP) while held, and run once the hold is closed; every lock type is held with
 * the Redisson lock Padlock uses for it, and keys are rendered as Padlock renders them.
 */
@ExtendWith(RedisExtension.class)
class OtherOwnerTest {

    @ApplicationScoped
    public static class Shop {
        final AtomicInteger ran = new AtomicInteger();

        @Inject
        Locks locks;

        @Locked(value = "stock", key = "{sku}", waitTime = "0")
        public String reserve(String sku) {
            ran.incrementAndGet();
            return sku;
        }

        @Locked(value = "stock", key = "{sku}", waitTime = "0", onFailure = OnFailure.SKIP)
        public String reserveOrSkip(String sku) {
            ran.incrementAndGet();
            return sku;
        }

        public boolean reserveInCode(String sku) {
            return locks.on("stock", sku)
                    .waitTime(Duration.ZERO)
                    .onFailure(OnFailure.SKIP)
                    .run(ran::incrementAndGet);
        }

        @Locked(value = "nightly-report", waitTime = "0")
        public String report() {
            ran.incrementAndGet();
            return "report";
        }

        @Locked(value = "reentrant", waitTime = "0")
        public void reentrant() {
            ran.incrementAndGet();
        }

        @Locked(value = "fair", type = LockType.FAIR, waitTime = "0")
        public void fair() {
            ran.incrementAndGet();
        }

        @Locked(value = "spin", type = LockType.SPIN, waitTime = "0")
        public void spin() {
            ran.incrementAndGet();
        }

        @Locked(value = "fenced", type = LockType.FENCED, waitTime = "0")
        public void fenced() {
            ran.incrementAndGet();
        }

        @Locked(value = "catalog", type = LockType.READ, waitTime = "0")
        public void read() {
            ran.incrementAndGet();
        }

        @Locked(value = "catalog", type = LockType.WRITE, waitTime = "0")
        public void write() {
            ran.incrementAndGet();
        }

        int ran() {
            return ran.get();
        }

        void countFromZero() {
            ran.set(0);
        }
    }

    private static Deployment app;
    private static Shop shop;

    @BeforeAll
    static void startApplication(RedisServer redis) {
        app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Shop.class);
        shop = app.bean(Shop.class);
    }

    @AfterAll
    static void stopApplication() {
        if (app != null) {
            app.close();
        }
    }

    @BeforeEach
    void countFromZero() {
        shop.countFromZero();
    }

    @Test
    void aHeldKeyIsNotAcquiredByTheApplicationUntilClosed(RedisServer redis) {
        try (HeldLock held = OtherOwner.at(redis).hold("stock", "A-42")) {
            assertThat(held.key()).isEqualTo("padlock:stock:A-42");

            assertThatThrownBy(() -> shop.reserve("A-42"))
                    .isInstanceOf(LockNotAcquiredException.class)
                    .hasMessageContaining("padlock:stock:A-42");
            assertThat(shop.reserve("B-7")).isEqualTo("B-7"); // another key is free
            assertThat(shop.ran()).isEqualTo(1);
        }

        assertThat(shop.reserve("A-42")).isEqualTo("A-42");
        assertThat(shop.ran()).isEqualTo(2);
        assertThat(redis.command("EXISTS", "padlock:stock:A-42")).isEqualTo(0L);
    }

    @Test
    void aHeldKeyMakesSkipCallsSkip(RedisServer redis) {
        try (HeldLock held = OtherOwner.at(redis.uri()).hold("stock", "A-42")) {
            assertThat(shop.reserveOrSkip("A-42")).isNull();
            assertThat(shop.reserveInCode("A-42")).isFalse();
            assertThat(shop.ran()).isEqualTo(0);
        }

        assertThat(shop.reserveOrSkip("A-42")).isEqualTo("A-42");
        assertThat(shop.reserveInCode("A-42")).isTrue();
        assertThat(shop.ran()).isEqualTo(2);
    }

    @Test
    void holdsANameWithoutAKey(RedisServer redis) {
        try (HeldLock held = OtherOwner.at(redis).hold("nightly-report")) {
            assertThat(held.key()).isEqualTo("padlock:nightly-report");
            assertThatThrownBy(shop::report).isInstanceOf(LockNotAcquiredException.class);
        }

        assertThat(shop.report()).isEqualTo("report");
    }

    @ParameterizedTest
    @EnumSource(LockType.class)
    void holdsEachTypeWithTheLockPadlockTakesForIt(LockType type, RedisServer redis) {
        String name = type == LockType.READ || type == LockType.WRITE
                ? "catalog"
                : type.name().toLowerCase(Locale.ROOT);
        try (HeldLock held = OtherOwner.at(redis).type(type).hold(name)) {
            assertThat(held.type()).isEqualTo(type);

            assertThatThrownBy(() -> exclusive(type)).isInstanceOf(LockNotAcquiredException.class);
            if (type == LockType.WRITE) {
                assertThatThrownBy(shop::read).isInstanceOf(LockNotAcquiredException.class);
            } else if (type == LockType.READ) {
                shop.read(); // readers share
            }
            assertThat(shop.ran()).isEqualTo(type == LockType.READ ? 1 : 0);
        }

        exclusive(type);
        assertThat(shop.ran()).isEqualTo(type == LockType.READ ? 2 : 1);
    }

    /** Why the type matters: Redisson's read/write locks do not see a plain lock's holder on the same key. */
    @Test
    void aHoldOfAnotherTypeDoesNotKeepTheApplicationOut(RedisServer redis) {
        try (HeldLock held = OtherOwner.at(redis).hold("catalog")) {
            shop.write();
            shop.read();
        }

        assertThat(shop.ran()).isEqualTo(2);
    }

    @Test
    void rendersAndEscapesKeysAsPadlockDoes(RedisServer redis) {
        String braces = "{A-42}%";
        String tooLong = "x".repeat(300);
        try (HeldLock escaped = OtherOwner.at(redis).hold("stock", braces);
                HeldLock shortened = OtherOwner.at(redis).hold("stock", tooLong)) {
            assertThat(escaped.key()).isEqualTo("padlock:stock:%7BA-42%7D%25");
            assertThat(redis.command("EXISTS", escaped.key())).isEqualTo(1L);
            assertThat(shortened.key()).startsWith("padlock:stock:" + "x".repeat(64) + "~sha256:");

            assertThatThrownBy(() -> shop.reserve(braces)).isInstanceOf(LockNotAcquiredException.class);
            assertThatThrownBy(() -> shop.reserve(tooLong)).isInstanceOf(LockNotAcquiredException.class);
            assertThat(shop.ran()).isEqualTo(0);
        }
    }

    @Test
    void holdsForLongerThanItsLeaseAndNeverLongerThanALeaseAhead(RedisServer redis) throws InterruptedException {
        try (HeldLock held = OtherOwner.at(redis).lease(Duration.ofMillis(300)).hold("stock", "A-42")) {
            Thread.sleep(1_200); // four leases

            assertThat(held.isHeld()).isTrue();
            assertThatThrownBy(() -> shop.reserve("A-42")).isInstanceOf(LockNotAcquiredException.class);
            assertThat((Long) redis.command("PTTL", held.key())).isBetween(1L, 300L);
        }

        assertThat(shop.reserve("A-42")).isEqualTo("A-42");
    }

    @Test
    void aSecondHoldOfAHeldKeyFailsAndSaysWhy(RedisServer redis) {
        try (HeldLock first = OtherOwner.at(redis).hold("stock", "A-42")) {
            assertThatThrownBy(
                            () -> OtherOwner.at(redis).waitTime(Duration.ZERO).hold("stock", "A-42"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("could not take padlock:stock:A-42 (REENTRANT)")
                    .hasMessageContaining("another owner holds it");
            assertThat(first.isHeld()).isTrue();
        }
    }

    @Test
    void aHoldLostToRedisIsNotHeldAndClosesQuietly(RedisServer redis) {
        HeldLock held = OtherOwner.at(redis).hold("stock", "A-42");
        redis.command("DEL", held.key());

        assertThat(held.isHeld()).isFalse();
        held.close();
        held.close();
        assertThat(held.isHeld()).isFalse();
    }

    @Test
    void aFencedHoldHasAToken(RedisServer redis) {
        long first;
        try (HeldLock held = OtherOwner.at(redis).type(LockType.FENCED).hold("fenced")) {
            first = held.token();
        }
        try (HeldLock held = OtherOwner.at(redis).type(LockType.FENCED).hold("fenced")) {
            assertThat(held.token()).isGreaterThan(first);
        }
        try (HeldLock held = OtherOwner.at(redis).hold("stock", "A-42")) {
            assertThatThrownBy(held::token).isInstanceOf(IllegalStateException.class);
        }
    }

    /**
     * The application's exclusive call for a name of each type (for READ, its writer), made on the bean from outside:
     * a bean calling its own methods bypasses the interceptor.
     */
    private static void exclusive(LockType type) {
        switch (type) {
            case REENTRANT -> shop.reentrant();
            case FAIR -> shop.fair();
            case SPIN -> shop.spin();
            case FENCED -> shop.fenced();
            case READ, WRITE -> shop.write();
        }
    }
}
