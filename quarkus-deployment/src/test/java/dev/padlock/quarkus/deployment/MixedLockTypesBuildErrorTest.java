package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;

/**
 * Methods and named lock beans that can reach one Redis key with different lock types fail the build, in the
 * one error listing every problem, worded as on the portable extension; READ and WRITE together pass.
 */
class MixedLockTypesBuildErrorTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Mixed.class, ReadAndWrite.class))
            .overrideConfigKey("padlock.locks.\"stock:eu-42\".type", "fair")
            .assertException(e -> {
                String all = e.toString();
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                    all += "\n" + c;
                }
                String bean = Mixed.class.getName();
                assertThat(all)
                        .contains("Padlock found 3 problem(s)")
                        .contains("Invalid @Locked.type on " + bean + "#read(String): the lock \"catalog\" is taken"
                                + " with different types: READ by " + bean + "#read(String), REENTRANT by " + bean
                                + "#update(String).")
                        .contains("the lock \"report\" is taken with different types: FAIR by " + bean
                                + "#report(), REENTRANT by the RLock injected at field " + bean + ".report.")
                        .contains("Invalid @Locked.type on " + bean + "#reserve(String): its keys"
                                + " padlock:stock:<key> can be padlock:stock:eu-42, locked as FAIR"
                                + " (padlock.locks.\"stock:eu-42\".type) by " + bean + "#reserveEu42(), and as"
                                + " REENTRANT here.")
                        .doesNotContain("prices");
            });

    @ApplicationScoped
    public static class Mixed {
        @Inject
        @Named("report")
        RLock report;

        @Locked(value = "catalog", key = "{id}")
        public void update(String id) {}

        @Locked(value = "catalog", key = "{id}", type = LockType.READ)
        public void read(String id) {}

        @Locked(value = "report", type = LockType.FAIR)
        public void report() {}

        @Locked(value = "stock", key = "{sku}")
        public void reserve(String sku) {}

        @Locked("stock:eu-42")
        public void reserveEu42() {}
    }

    @ApplicationScoped
    public static class ReadAndWrite {
        @Inject
        @Named("prices")
        RReadWriteLock prices;

        @Locked(value = "prices", key = "{id}", type = LockType.READ)
        public void read(String id) {}

        @Locked(value = "prices", type = LockType.WRITE)
        public void writeAll() {}
    }

    @Test
    void theBuildFails() {
        // assertException above checks the message; reaching here means the build failed as expected
    }
}
