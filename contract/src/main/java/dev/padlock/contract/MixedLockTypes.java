package dev.padlock.contract;

import dev.padlock.LockType;
import dev.padlock.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;

/**
 * Every method and named lock bean that can reach one Redis key must use one lock type (READ and WRITE are one
 * family): Redisson's lock families do not see each other's holders. An application that mixes them is refused, the
 * message naming every method or injection point and its type; one that does not is accepted. Each mix has a lock
 * name of its own, so that all of them can be refused in one application.
 */
public final class MixedLockTypes {

    private MixedLockTypes() {}

    @ApplicationScoped
    public static class ReentrantAndRead {
        @Locked(value = "catalog", key = "{id}")
        public void update(String id) {}

        @Locked(value = "catalog", key = "{id}", type = LockType.READ)
        public void read(String id) {}
    }

    @ApplicationScoped
    public static class FairAndReentrant {
        @Locked(value = "queue", type = LockType.FAIR)
        public void fair() {}

        @Locked("queue")
        public void plain() {}
    }

    @ApplicationScoped
    public static class NamedLockAndRead {
        @Inject
        @Named("report")
        RLock report;

        @Locked(value = "report", type = LockType.READ)
        public void read() {}
    }

    @ApplicationScoped
    public static class NamedLockAndFair {
        @Inject
        @Named("audit")
        RLock audit;

        @Locked(value = "audit", type = LockType.FAIR)
        public void audit() {}
    }

    /** "stock" keyed by sku reaches "padlock:stock:eu-42", the key of the other method. */
    @ApplicationScoped
    public static class StockAndOneItem {
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

        @Locked(value = "prices", key = "{id}", type = LockType.WRITE)
        public void write(String id) {}

        @Locked(value = "prices", type = LockType.WRITE)
        public void writeAll() {}
    }

    @ApplicationScoped
    public static class SameTypes {
        @Inject
        @Named("jobs")
        RLock jobs;

        @Locked(value = "jobs", key = "{id}")
        public void one(String id) {}

        @Locked("jobs")
        public void all() {}

        @Locked(value = "line", type = LockType.FAIR)
        public void first() {}

        @Locked(value = "line", key = "{id}", type = LockType.FAIR)
        public void second(String id) {}
    }

    /** READ and WRITE on one name, and one type per name: accepted. */
    public static final ApplicationUnderTest ACCEPTED = ApplicationUnderTest.of(ReadAndWrite.class, SameTypes.class);

    public static final Refusal REENTRANT_AND_READ = Refusal.of(
            ApplicationUnderTest.of(ReentrantAndRead.class),
            1,
            "Invalid @Locked.type on " + ReentrantAndRead.class.getName() + "#read(String): the lock \"catalog\" is"
                    + " taken with different types: READ by " + ReentrantAndRead.class.getName() + "#read(String),"
                    + " REENTRANT by " + ReentrantAndRead.class.getName() + "#update(String).",
            "Use one type for every lock named \"catalog\" (READ and WRITE may share one)");

    public static final Refusal FAIR_AND_REENTRANT = Refusal.of(
            ApplicationUnderTest.of(FairAndReentrant.class),
            1,
            "Invalid @Locked.type on " + FairAndReentrant.class.getName() + "#fair(): the lock \"queue\" is taken with"
                    + " different types: FAIR by " + FairAndReentrant.class.getName() + "#fair(), REENTRANT by "
                    + FairAndReentrant.class.getName() + "#plain().");

    public static final Refusal NAMED_LOCK_AND_READ = Refusal.of(
            ApplicationUnderTest.of(NamedLockAndRead.class),
            1,
            "the lock \"report\" is taken with different types: READ by " + NamedLockAndRead.class.getName()
                    + "#read(), REENTRANT by the RLock injected at field " + NamedLockAndRead.class.getName()
                    + ".report.");

    public static final Refusal NAMED_LOCK_AND_FAIR = Refusal.of(
            ApplicationUnderTest.of(NamedLockAndFair.class),
            1,
            "the lock \"audit\" is taken with different types: FAIR by " + NamedLockAndFair.class.getName()
                    + "#audit(), REENTRANT by the RLock injected at field " + NamedLockAndFair.class.getName()
                    + ".audit.");

    /** The same beans are accepted without this configuration: the type configured for one key makes the mix. */
    public static final Refusal CONFIGURED_TYPE = Refusal.of(
            ApplicationUnderTest.of(StockAndOneItem.class).with("padlock.locks.\"stock:eu-42\".type", "fair"),
            1,
            "Invalid @Locked.type on " + StockAndOneItem.class.getName() + "#reserve(String): its keys"
                    + " padlock:stock:<key> can be padlock:stock:eu-42, locked as FAIR"
                    + " (padlock.locks.\"stock:eu-42\".type) by " + StockAndOneItem.class.getName() + "#reserveEu42(),"
                    + " and as REENTRANT here.");

    /** Every mix above in one application, beside the accepted beans. */
    public static final Refusal ALL_AT_ONCE = Refusal.together(
                    REENTRANT_AND_READ, FAIR_AND_REENTRANT, NAMED_LOCK_AND_READ, NAMED_LOCK_AND_FAIR, CONFIGURED_TYPE)
            .beside(ACCEPTED)
            .without("prices");
}
