package dev.padlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.padlock.Locked;
import dev.padlock.Locks;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link PadlockAssert} inside the code under test, in an application on Weld: it passes under a {@code @Locked}
 * method, under {@code Locks}, and in a call nested in another one (the outer lock still counts); it fails where the
 * interceptor did not run. The application uses its own key prefix, so a key is matched as the call rendered it.
 */
@ExtendWith(RedisExtension.class)
class PadlockAssertTest {

    @ApplicationScoped
    public static class Inventory {
        @Inject
        Locks locks;

        @Inject
        Audit audit;

        @Locked(value = "stock", key = "{sku}")
        public void reserve(String sku, Runnable body) {
            body.run();
        }

        public void reserveInCode(String sku, Runnable body) {
            locks.on("stock", sku).run(body);
        }

        /** Calls {@link #reserve} on {@code this}: Weld does not intercept a bean's calls to itself. */
        public void reserveThroughThis(String sku, Runnable body) {
            this.reserve(sku, body);
        }

        @Locked(value = "stock", key = "{sku}")
        public void reserveAndAudit(String sku, Runnable body) {
            audit.record(body);
        }

        @Locked(value = "stock", key = "{sku}")
        public void reserveAndAuditInCode(String sku, Runnable body) {
            locks.on("audit").run(body);
        }
    }

    @ApplicationScoped
    public static class Audit {
        @Locked("audit")
        public void record(Runnable body) {
            body.run();
        }
    }

    private static Deployment app;
    private static Inventory inventory;

    @BeforeAll
    static void startApplication(RedisServer redis) {
        app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.key-prefix", "shop:"),
                Inventory.class,
                Audit.class);
        inventory = app.bean(Inventory.class);
    }

    @AfterAll
    static void stopApplication() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void passesInsideALockedMethod() {
        int[] checks = {0};
        inventory.reserve("A-42", () -> {
            PadlockAssert.assertLocked();
            PadlockAssert.assertLocked("stock");
            PadlockAssert.assertLocked("stock", "A-42");
            checks[0]++;
        });
        assertThat(checks[0]).isEqualTo(1);
    }

    @Test
    void passesInsideCodeRunThroughLocks() {
        int[] checks = {0};
        inventory.reserveInCode("A-42", () -> {
            PadlockAssert.assertLocked();
            PadlockAssert.assertLocked("stock");
            PadlockAssert.assertLocked("stock", "A-42");
            checks[0]++;
        });
        assertThat(checks[0]).isEqualTo(1);
    }

    @Test
    void seesTheEnclosingCallsLockFromANestedCall() {
        int[] checks = {0};
        Runnable both = () -> {
            PadlockAssert.assertLocked("audit");
            PadlockAssert.assertLocked("stock", "A-42");
            checks[0]++;
        };
        inventory.reserveAndAudit("A-42", both);
        inventory.reserveAndAuditInCode("A-42", both);
        assertThat(checks[0]).isEqualTo(2);
    }

    @Test
    void matchesAKeyAsPadlockEscapesIt() {
        int[] checks = {0};
        inventory.reserve(
                "{A-42}%",
                () -> {
                    PadlockAssert.assertLocked("stock", "{A-42}%");
                    checks[0]++;
                });
        assertThat(checks[0]).isEqualTo(1);
    }

    @Test
    void failsOutsideAnyLock() {
        AssertionError failure = catchThrowableOfType(AssertionError.class, () -> PadlockAssert.assertLocked("stock"));

        assertThat(failure)
                .hasMessageContaining("Padlock lock \"stock\"")
                .hasMessageContaining("no Padlock lock is held on thread "
                        + Thread.currentThread().getName())
                .hasMessageContaining("not called through its CDI bean")
                .hasMessageContaining("addExtension(new PadlockExtension())");
        assertThatThrownBy(PadlockAssert::assertLocked).isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> PadlockAssert.assertLocked("stock", "A-42")).isInstanceOf(AssertionError.class);
    }

    @Test
    void failsInAMethodTheInterceptorDidNotRunFor() {
        AssertionError failure = catchThrowableOfType(
                AssertionError.class,
                () -> inventory.reserveThroughThis("A-42", () -> PadlockAssert.assertLocked("stock", "A-42")));

        assertThat(failure)
                .hasMessageContaining("Padlock lock \"stock\" for key \"A-42\"")
                .hasMessageContaining("no Padlock lock is held")
                .hasMessageContaining("this.method(...)");
    }

    @Test
    void failsForAnotherNameOrKeyAndSaysWhatIsHeld() {
        AssertionError otherKey = catchThrowableOfType(
                AssertionError.class,
                () -> inventory.reserveAndAudit("A-42", () -> PadlockAssert.assertLocked("stock", "B-7")));
        AssertionError otherName = catchThrowableOfType(
                AssertionError.class, () -> inventory.reserve("A-42", () -> PadlockAssert.assertLocked("orders")));

        assertThat(otherKey)
                .hasMessageContaining("Padlock lock \"stock\" for key \"B-7\"")
                .hasMessageContaining("\"audit\" [shop:audit] for " + Audit.class.getName())
                .hasMessageContaining("enclosing it, \"stock\" [shop:stock:A-42] for " + Inventory.class.getName());
        assertThat(otherName)
                .hasMessageContaining("Padlock lock \"orders\"")
                .hasMessageContaining("\"stock\" [shop:stock:A-42]");
    }

    @Test
    void failsAgainOnceTheLockedCallReturned() {
        inventory.reserve("A-42", PadlockAssert::assertLocked);

        assertThatThrownBy(PadlockAssert::assertLocked).isInstanceOf(AssertionError.class);
    }
}
