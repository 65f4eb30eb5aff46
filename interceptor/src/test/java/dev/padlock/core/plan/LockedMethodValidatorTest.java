package dev.padlock.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.OnFailure;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.LeaseLossPolicy;
import dev.padlock.core.config.Problems;
import dev.padlock.core.config.ReleasePolicy;
import dev.padlock.core.shape.MethodShape;
import dev.padlock.core.shape.ReflectedShapes;
import dev.padlock.core.shape.TypeShape;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

class LockedMethodValidatorTest {

    record Sku(String code) {}

    static class Beans {
        @Locked(key = "{sku.code}")
        void fine(Sku sku) {}

        @Locked(key = "{skus}")
        void unknownParameter(String sku, int qty) {}

        @Locked(key = "{2}")
        void outOfRange(String sku, int qty) {}

        @Locked(key = "{sku.colour}")
        void unknownProperty(Sku sku) {}

        @Locked(key = "{qty.value}")
        void propertyOfPrimitive(int qty) {}

        @Locked(key = "{sku")
        void malformed(String sku) {}

        @Locked(key = "{sku}")
        void noParameters() {}

        @Locked(waitTime = "soon")
        void badWait() {}

        @Locked(leaseTime = "0")
        void zeroLease() {}

        @Locked(onFailure = OnFailure.SKIP)
        int skipPrimitive() {
            return 0;
        }

        @Locked(onFailure = OnFailure.SKIP)
        Optional<String> skipOptional() {
            return Optional.empty();
        }

        @Locked(onFailure = OnFailure.SKIP)
        CompletionStage<String> skipStage() {
            return null;
        }

        @Locked("has{brace}")
        void braceInName() {}

        @Locked(value = "stock", waitTime = "2s", leaseTime = "10s", type = LockType.FAIR)
        void configured() {}

        @Locked(value = "many", key = "{sku", waitTime = "later", onFailure = OnFailure.SKIP)
        long everythingWrong(String sku) {
            return 0;
        }

        @Locked
        MyFuture subtypeOfStage() {
            return null;
        }

        @Locked(value = "report", waitTime = "0", onFailure = OnFailure.SKIP, holdAtLeast = "20s")
        void holdsAtLeast() {}

        @Locked(value = "import", leaseTime = "10s", holdAtLeast = "30s")
        void holdsLongerThanItsLease() {}

        @Locked(value = "watched", holdAtLeast = "45s")
        void holdsLongerThanTheWatchdog() {}

        @Locked(value = "queue", type = LockType.FAIR, holdAtLeast = "1s")
        void holdsAFairLock() {}

        @Locked(value = "catalog", type = LockType.READ, holdAtLeast = "1s")
        void holdsAReadLock() {}

        @Locked(value = "none", holdAtLeast = "0")
        void holdsForNoTime() {}

        @jakarta.ejb.Schedule(hour = "2", persistent = false)
        @Locked(value = "nightly", waitTime = "0", onFailure = OnFailure.SKIP)
        void timerCallback() {}
    }

    static class MyFuture extends CompletableFuture<String> {}

    /** An entity without toString(): renders as an identity hash. */
    public static class Order {
        public long getId() {
            return 1;
        }
    }

    public static class Plain {}

    public static class Tagged {
        @Override
        public String toString() {
            return "tagged";
        }
    }

    public static class SubTagged extends Tagged {}

    public abstract static class AbstractThing {}

    public interface Thing {}

    public record Line(String sku, Plain plain) {}

    public enum Colour {
        RED
    }

    static class KeyTypes {
        @Locked(key = "{order}")
        void identity(Order order) {}

        @Locked(key = "{line.plain}")
        void identityAlongAPath(Line line) {}

        @Locked(key = "{ids}")
        void array(String[] ids) {}

        @Locked(key = "{when}")
        void date(java.util.Date when) {}

        @Locked(key = "{when}")
        void sqlTimestamp(java.sql.Timestamp when) {}

        @Locked(key = "{when}")
        void calendar(java.util.Calendar when) {}

        @Locked(key = "{skus}")
        void set(java.util.Set<String> skus) {}

        @Locked(key = "{skus}")
        void hashSet(java.util.HashSet<String> skus) {}

        @Locked(key = "{skus}")
        void linkedHashSet(java.util.LinkedHashSet<String> skus) {}

        @Locked(key = "{stock}")
        void map(Map<String, Integer> stock) {}

        @Locked(key = "{stock}")
        void hashMap(HashMap<String, Integer> stock) {}

        @Locked(
                key = {
                    "{0}",
                    "{1}",
                    "{2}",
                    "{3}",
                    "{4}",
                    "{5}",
                    "{6}",
                    "{7}",
                    "{8}",
                    "{9}",
                    "{10}",
                    "{11}",
                    "{12}",
                    "{13}",
                    "{14}",
                    "{15}",
                    "{16}",
                    "{17}",
                    "{18}",
                    "{19}",
                    "{20}",
                    "{21}",
                    "{22}",
                    "{23}",
                    "{order.id}",
                    "{25.time}"
                })
        void stable(
                String s,
                int i,
                Long boxed,
                java.util.UUID uuid,
                java.math.BigDecimal amount,
                java.time.Instant instant,
                java.time.LocalDate day,
                Colour colour,
                Sku sku,
                Tagged tagged,
                SubTagged subTagged,
                List<String> list,
                java.util.SortedSet<String> sorted,
                java.util.TreeMap<String, String> sortedMap,
                java.util.EnumSet<Colour> colours,
                java.util.EnumMap<Colour, String> byColour,
                Object anything,
                CharSequence chars,
                java.util.Collection<String> collection,
                AbstractThing abstractThing,
                Thing thing,
                Optional<String> optional,
                java.time.ZonedDateTime zoned,
                StringBuilder builder,
                Order order,
                java.util.Date date) {}
    }

    private final Map<String, String> config = new HashMap<>();

    private LockedMethodValidator.Result validate(String name) {
        for (var m : Beans.class.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                return validate(ReflectedShapes.of(m), LockedSpec.of(m.getAnnotation(Locked.class)));
            }
        }
        throw new AssertionError(name);
    }

    private LockedMethodValidator.Result validate(MethodShape shape, LockedSpec spec) {
        Problems globalProblems = new Problems();
        GlobalDefaults global = GlobalDefaults.read(ConfigView.of(config), globalProblems);
        assertThat(globalProblems.list()).isEmpty();
        return new LockedMethodValidator(global, ConfigView.of(config)).validate(shape, spec);
    }

    private List<String> problems(String method) {
        return validate(method).problems();
    }

    @Test
    void aValidMethodGetsAPlanWithDefaults() {
        LockPlan plan = validate("fine").plan();
        assertThat(plan.lockName()).isEqualTo(Beans.class.getName() + "#fine");
        assertThat(plan.redisBase()).isEqualTo("padlock:" + Beans.class.getName() + "#fine");
        assertThat(plan.settings())
                .isEqualTo(new LockSettings(
                        LockType.REENTRANT, Duration.ofSeconds(5), null, OnFailure.THROW, LeaseLossPolicy.WARN));
        assertThat(plan.keys().get(0).parameterIndexes()).containsExactly(0);
    }

    @Test
    void aHoldAtLeastResolvesFromTheMemberAndTheLockKey() {
        assertThat(validate("holdsAtLeast").plan().settings().holdAtLeast()).isEqualTo(Duration.ofSeconds(20));
        assertThat(validate("holdsForNoTime").plan().settings().holdsAtLeast()).isFalse();
        assertThat(validate("fine").plan().settings().holdsAtLeast()).isFalse();

        config.put("padlock.locks.report.hold-at-least", "5s");
        assertThat(validate("holdsAtLeast").plan().settings().holdAtLeast()).isEqualTo(Duration.ofSeconds(5));
        config.put("padlock.locks.report.hold-at-least", "0");
        assertThat(validate("holdsAtLeast").plan().settings().holdsAtLeast()).isFalse();
    }

    @Test
    void aHoldAtLeastLongerThanTheLeaseIsRefusedWithTheFix() {
        assertThat(problems("holdsLongerThanItsLease"))
                .containsExactly("Invalid @Locked.holdAtLeast on " + Beans.class.getName()
                        + "#holdsLongerThanItsLease(): 30s is longer than the lease (10s), after which Redis frees the"
                        + " key anyway. Use 10s or less, or a leaseTime at least as long.");
    }

    @Test
    void aHoldAtLeastLongerThanTheWatchdogTimeoutIsRefusedWithTheFix() {
        assertThat(problems("holdsLongerThanTheWatchdog"))
                .containsExactly("Invalid @Locked.holdAtLeast on " + Beans.class.getName()
                        + "#holdsLongerThanTheWatchdog(): 45s is longer than the lease of a watchdog-mode lock,"
                        + " padlock.watchdog-timeout (30s), after which Redis frees a key its JVM no longer renews."
                        + " Use 30s or less, raise padlock.watchdog-timeout, or set a leaseTime at least as long.");

        config.put("padlock.watchdog-timeout", "1m");
        assertThat(problems("holdsLongerThanTheWatchdog")).isEmpty();
        config.put("padlock.watchdog-timeout", "10s");
        assertThat(problems("holdsAtLeast")).singleElement().asString().contains("20s is longer than");
    }

    @Test
    void aHoldAtLeastFromTheLockKeyIsCheckedAndNamedAsTheKey() {
        config.put("padlock.locks.report.hold-at-least", "2m");
        assertThat(problems("holdsAtLeast"))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.locks.report.hold-at-least (lock of " + Beans.class.getName()
                        + "#holdsAtLeast()): 2m is longer than the lease of a watchdog-mode lock");
    }

    @Test
    void onlyLocksWhoseHoldCanOutliveTheCallTakeAHoldAtLeast() {
        assertThat(problems("holdsAFairLock"))
                .containsExactly("Invalid @Locked.holdAtLeast on " + Beans.class.getName()
                        + "#holdsAFairLock(): a FAIR lock cannot be held past its call: the callers queued for it in"
                        + " Redis wait for an unlock, not for its expiry. Use type REENTRANT (the default), SPIN or"
                        + " FENCED, or remove the hold-at-least.");
        assertThat(problems("holdsAReadLock")).singleElement().asString().contains("a READ lock cannot be held");
    }

    @Test
    void anEjbTimerCallbackIsRefusedForItWouldRunWithoutTheLock() {
        assertThat(problems("timerCallback"))
                .containsExactly("Invalid @Locked on " + Beans.class.getName() + "#timerCallback(): an EJB timer"
                        + " callback (@Schedule or @Timeout) is called through @AroundTimeout interceptors only, so it"
                        + " would run without the lock. Put @Locked on a method of another bean and call that from the"
                        + " timer method.");
    }

    @Test
    void unknownParameterNamesTheAlternatives() {
        assertThat(problems("unknownParameter"))
                .containsExactly("Invalid @Locked.key on " + Beans.class.getName()
                        + "#unknownParameter(String, int): {skus} names no parameter of the method. Use one of sku,"
                        + " qty, or a position such as {0}.");
    }

    @Test
    void positionOutOfRange() {
        assertThat(problems("outOfRange"))
                .singleElement()
                .asString()
                .contains("Invalid @Locked.key on ", "#outOfRange(String, int): {2} is out of range", "Use {0} to {1}");
    }

    @Test
    void unknownPropertySaysWhatWasLookedFor() {
        assertThat(problems("unknownProperty"))
                .singleElement()
                .asString()
                .contains(
                        "{sku.colour}",
                        "has no public getter getColour()/isColour(), record component or public field 'colour'");
    }

    @Test
    void propertyOfPrimitive() {
        assertThat(problems("propertyOfPrimitive"))
                .singleElement()
                .asString()
                .contains("{qty.value}: qty is a int, which has no properties");
    }

    @Test
    void malformedTemplateAndTemplateWithoutParameters() {
        assertThat(problems("malformed"))
                .singleElement()
                .asString()
                .contains("Invalid @Locked.key on", "'{' without its '}'");
        assertThat(problems("noParameters")).singleElement().asString().contains("the method has no parameters");
    }

    @Test
    void missingParameterNamesTellHowToCompile() {
        TypeShape string = ReflectedShapes.of(String.class);
        MethodShape compiledWithoutNames = new MethodShape() {
            public String declaringClass() {
                return "com.acme.Legacy";
            }

            public String name() {
                return "reserve";
            }

            public List<Parameter> parameters() {
                return List.of(new Parameter(null, string));
            }

            public TypeShape returnType() {
                return ReflectedShapes.of(void.class);
            }

            public boolean isInterceptable() {
                return true;
            }
        };
        LockedSpec spec = new LockedSpec("", List.of("{sku}"), LockType.REENTRANT, "", "", OnFailure.THROW);
        assertThat(validate(compiledWithoutNames, spec).problems())
                .singleElement()
                .asString()
                .startsWith("Invalid @Locked.key on com.acme.Legacy#reserve(String): {sku} names a parameter, but"
                        + " com.acme.Legacy was compiled without parameter names.")
                .contains("-parameters", "{0}");
    }

    @Test
    void badDurationsAndZeroLease() {
        assertThat(problems("badWait"))
                .singleElement()
                .asString()
                .startsWith("Invalid @Locked.waitTime on " + Beans.class.getName() + "#badWait(): 'soon'")
                .contains("250ms");
        assertThat(problems("zeroLease"))
                .singleElement()
                .asString()
                .contains("Invalid @Locked.leaseTime", "lease of 0");
    }

    @Test
    void skipNeedsSomethingToReturn() {
        assertThat(problems("skipPrimitive"))
                .singleElement()
                .asString()
                .isEqualTo("Invalid @Locked.onFailure on " + Beans.class.getName() + "#skipPrimitive(): SKIP has"
                        + " nothing to return for the primitive return type int. Return a wrapper (e.g. Integer,"
                        + " null when skipped), an Optional, or use THROW.");
        assertThat(validate("skipOptional").plan().returnKind()).isEqualTo(ReturnKind.OPTIONAL);
        assertThat(validate("skipStage").plan().returnKind()).isEqualTo(ReturnKind.COMPLETION_STAGE);
    }

    @Test
    void bracesInTheLockName() {
        assertThat(problems("braceInName"))
                .singleElement()
                .asString()
                .contains("Invalid @Locked.value", "hash tag", "Remove the braces");
    }

    @Test
    void stageSubtypesAreRefused() {
        assertThat(problems("subtypeOfStage"))
                .singleElement()
                .asString()
                .contains("CompletionStage subtype", "CompletionStage, CompletableFuture, Uni, Multi or Publisher");
    }

    @Test
    void reportsEveryProblemOfAMethodAtOnce() {
        assertThat(problems("everythingWrong"))
                .hasSize(3)
                .anySatisfy(p -> assertThat(p).contains("@Locked.key"))
                .anySatisfy(p -> assertThat(p).contains("@Locked.waitTime"))
                .anySatisfy(p -> assertThat(p).contains("@Locked.onFailure"));
    }

    @Test
    void precedenceIsPerLockConfigThenAnnotationThenGlobalThenDefault() {
        assertThat(validate("configured").plan().settings())
                .isEqualTo(new LockSettings(
                        LockType.FAIR,
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(10),
                        OnFailure.THROW,
                        LeaseLossPolicy.WARN));

        config.put("padlock.wait-time", "7s");
        config.put("padlock.lease-time", "1m");
        assertThat(validate("fine").plan().settings().waitTime()).isEqualTo(Duration.ofSeconds(7));
        assertThat(validate("fine").plan().settings().leaseTime()).isEqualTo(Duration.ofMinutes(1));
        assertThat(validate("configured").plan().settings().waitTime()).isEqualTo(Duration.ofSeconds(2));

        config.put("padlock.locks.\"stock\".wait-time", "0");
        config.put("padlock.locks.stock.lease-time", "watchdog");
        config.put("padlock.locks.\"stock\".type", "write");
        config.put("padlock.locks.\"stock\".on-failure", "skip");
        config.put("padlock.locks.\"stock\".on-lease-lost", "throw");
        assertThat(validate("configured").plan().settings())
                .isEqualTo(
                        new LockSettings(LockType.WRITE, Duration.ZERO, null, OnFailure.SKIP, LeaseLossPolicy.THROW));
    }

    @Test
    void onLeaseLostIsGlobalThenPerLockAndNamesABadValue() {
        config.put("padlock.on-lease-lost", "THROW");
        assertThat(validate("fine").plan().settings().onLeaseLost()).isEqualTo(LeaseLossPolicy.THROW);
        config.put("padlock.locks.\"stock\".on-lease-lost", "warn");
        assertThat(validate("configured").plan().settings().onLeaseLost()).isEqualTo(LeaseLossPolicy.WARN);
        config.put("padlock.locks.\"stock\".on-lease-lost", "Interrupt");
        assertThat(validate("configured").plan().settings().onLeaseLost()).isEqualTo(LeaseLossPolicy.INTERRUPT);

        config.put("padlock.locks.\"stock\".on-lease-lost", "explode");
        assertThat(problems("configured"))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.locks.\"stock\".on-lease-lost (lock of ")
                .contains("'explode' is not a policy for a lost lock. Use one of warn, throw, interrupt (warn reports");
    }

    @Test
    void aLockDelayIsSetPerLockOnlyAndNamesABadValue() {
        assertThat(validate("configured").plan().settings().lockDelay()).isZero();
        config.put("padlock.locks.\"stock\".lock-delay", "5s");
        assertThat(validate("configured").plan().settings().lockDelay()).isEqualTo(Duration.ofSeconds(5));
        assertThat(validate("fine").plan().settings().lockDelay())
                .as("another lock")
                .isZero();

        config.put("padlock.locks.\"stock\".lock-delay", "-5s");
        assertThat(problems("configured"))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.locks.\"stock\".lock-delay (lock of ")
                .contains("'-5s' is not a duration; use 0, 250ms, 5s");
    }

    @Test
    void releaseIsAfterTheTransactionUnlessGlobalOrPerLockConfigSaysOnReturn() {
        assertThat(validate("fine").plan().settings().release()).isEqualTo(ReleasePolicy.AFTER_TRANSACTION);
        config.put("padlock.release", "on-return");
        assertThat(validate("fine").plan().settings().release()).isEqualTo(ReleasePolicy.ON_RETURN);
        config.put("padlock.locks.\"stock\".release", "AFTER_TRANSACTION");
        assertThat(validate("configured").plan().settings().release()).isEqualTo(ReleasePolicy.AFTER_TRANSACTION);

        config.put("padlock.locks.\"stock\".release", "after-commit");
        assertThat(problems("configured"))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.locks.\"stock\".release (lock of ")
                .contains("'after-commit' is not a release policy. Use one of after-transaction, on-return");
    }

    @Test
    void badPerLockConfigNamesTheKey() {
        config.put("padlock.locks.\"stock\".type", "exclusive");
        config.put("padlock.locks.\"stock\".wait-time", "forever");
        assertThat(problems("configured"))
                .anySatisfy(p -> assertThat(p)
                        .startsWith("Invalid padlock.locks.\"stock\".type (lock of ")
                        .contains("'exclusive' is not a LockType", "reentrant, fair, read, write, spin, fenced"))
                .anySatisfy(p -> assertThat(p).startsWith("Invalid padlock.locks.\"stock\".wait-time"));
    }

    @Test
    void skipFromConfigOnAPrimitiveNamesTheConfigKey() {
        config.put("padlock.locks.\"" + Beans.class.getName() + "#badWait\".on-failure", "skip");
        config.put("padlock.locks.\"" + Beans.class.getName() + "#fine\".on-failure", "skip");
        assertThat(problems("fine")).isEmpty();
        Map<String, String> c = config;
        c.put("padlock.locks.\"" + Beans.class.getName() + "#skipPrimitive\".on-failure", "skip");
        c.put("padlock.locks.\"" + Beans.class.getName() + "#skipPrimitive\".wait-time", "1s");
        assertThat(problems("skipPrimitive"))
                .singleElement()
                .asString()
                .startsWith("Invalid padlock.locks.\"" + Beans.class.getName() + "#skipPrimitive\".on-failure");
    }

    private List<String> keyProblems(String name) {
        for (var m : KeyTypes.class.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                return validate(ReflectedShapes.of(m), LockedSpec.of(m.getAnnotation(Locked.class)))
                        .problems();
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void keysRenderedWithObjectToStringAreRefused() {
        assertThat(keyProblems("identity"))
                .containsExactly("Invalid @Locked.key on " + KeyTypes.class.getName() + "#identity(Order): {order}"
                        + " is a " + Order.class.getName() + ", which inherits Object.toString(): an identity hash"
                        + " that differs for every instance, so equal values would not share a lock. Lock on a"
                        + " property such as {order.id}, or give Order a toString() built from the fields that"
                        + " identify it.");
        assertThat(keyProblems("identityAlongAPath"))
                .singleElement()
                .asString()
                .contains("{line.plain} is a " + Plain.class.getName() + ", which inherits Object.toString()")
                .contains("Lock on a property such as {line.plain.<property>}");
    }

    @Test
    void arraysAreRefused() {
        assertThat(keyProblems("array"))
                .singleElement()
                .asString()
                .startsWith("Invalid @Locked.key on " + KeyTypes.class.getName() + "#array(String[]): {ids} is a"
                        + " String[], whose toString() is an identity hash")
                .contains("Pass a List");
    }

    @Test
    void datesAndCalendarsAreRefusedForTheirTimeZone() {
        assertThat(keyProblems("date"))
                .singleElement()
                .asString()
                .contains("{when} is a java.util.Date, whose toString() depends on the JVM's time zone")
                .contains("{when.time}", "Instant");
        assertThat(keyProblems("sqlTimestamp")).singleElement().asString().contains("{when} is a java.sql.Timestamp");
        assertThat(keyProblems("calendar"))
                .singleElement()
                .asString()
                .contains("{when} is a java.util.Calendar", "{when.timeInMillis}");
    }

    @Test
    void unorderedSetsAndMapsAreRefused() {
        for (String method : List.of("set", "hashSet", "linkedHashSet", "map", "hashMap")) {
            assertThat(keyProblems(method))
                    .as(method)
                    .singleElement()
                    .asString()
                    .contains("whose toString() lists its elements in iteration order")
                    .contains("Pass a List or a sorted collection (TreeSet, TreeMap)");
        }
    }

    @Test
    void typesWithAStableOrUnknowableToStringAreAccepted() {
        assertThat(keyProblems("stable")).isEmpty();
    }

    @Test
    void globalSettingsProblemsNameTheirKeys() {
        Problems found = new Problems();
        GlobalDefaults.read(
                ConfigView.of(
                        Map.of("padlock.key-prefix", "{app}:", "padlock.wait-time", "x", "padlock.lease-time", "0")),
                found);
        List<String> problems = found.list();
        assertThat(problems).hasSize(3);
        assertThat(problems.get(0))
                .isEqualTo("Invalid padlock.key-prefix: '{app}:' contains '{' or '}', which Redis Cluster reads as a"
                        + " hash tag and which would put Redisson's side keys of the lock in another slot than the"
                        + " lock. Remove the braces.");
        assertThat(problems.get(1)).startsWith("Invalid padlock.wait-time: 'x'");
        assertThat(problems.get(2)).startsWith("Invalid padlock.lease-time: a lease of 0");
    }
}
