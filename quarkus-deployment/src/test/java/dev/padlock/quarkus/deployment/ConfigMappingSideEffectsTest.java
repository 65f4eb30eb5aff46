package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import io.smallrye.config.EnvConfigSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.RedissonFairLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Every form of valid Padlock configuration starts a Quarkus application without a warning from Quarkus or SmallRye
 * Config, and Padlock reads it: environment-variable names, a quoted lock name with dots, an unquoted one with and
 * without dots, a profile, and keys Padlock does not know (it ignores them; so must Quarkus). This is what a
 * {@code padlock} config root in the extension would break (tried for the configuration reference: start-up failed
 * with {@code SRCFG00050} on the unknown keys, and with that check off Quarkus still warned about four of these
 * keys), which is why the documented {@code padlock.*} interface lives in the docs module instead.
 */
class ConfigMappingSideEffectsTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Beans.class, EnvironmentForm.class, TestRedis.class)
                    .addAsServiceProvider(ConfigSource.class, EnvironmentForm.class))
            .overrideConfigKey("padlock.locks.\"com.acme.Dotted#name\".type", "fair")
            .overrideConfigKey("padlock.locks.plain.type", "fair")
            .overrideConfigKey("padlock.locks.un.quoted.type", "fair")
            .overrideConfigKey("%test.padlock.locks.\"profiled\".type", "fair")
            .overrideConfigKey("%prod.padlock.locks.\"prod-only\".type", "fair")
            .overrideConfigKey("padlock.not-a-padlock-key", "anything")
            .overrideConfigKey("padlock.locks.\"guarded\".no-such-property", "anything")
            .overrideConfigKey("padlock.locks.\"guarded\".wait-time", "10s")
            .setLogRecordPredicate(r -> r.getLevel().intValue() >= Level.WARNING.intValue()
                    && !r.getLoggerName().startsWith("dev.padlock"))
            .assertLogRecords(records -> assertThat(records.stream()
                            .map(r -> r.getLoggerName() + ": " + r.getMessage() + " "
                                    + Arrays.toString(r.getParameters()))
                            .toList())
                    .as("warnings of Quarkus or SmallRye Config about padlock.* keys")
                    .noneMatch(message -> message.contains("padlock")));

    /**
     * Environment variables as the environment would give them (a JVM cannot set its own): SmallRye's own source,
     * with their names.
     */
    public static class EnvironmentForm extends EnvConfigSource {
        public EnvironmentForm() {
            super(
                    Map.of(
                            "PADLOCK_REDIS_ADDRESS", TestRedis.uri(),
                            "PADLOCK_KEY_PREFIX", "side-effects:",
                            "PADLOCK_LOCKS__ENV_NAMED__TYPE", "fair"),
                    300);
        }

        @Override
        public String getName() {
            return "test environment variables";
        }
    }

    @ApplicationScoped
    public static class Beans {
        @Inject
        @Named("com.acme.Dotted#name")
        RLock dotted;

        @Inject
        @Named("plain")
        RLock plain;

        @Inject
        @Named("un.quoted")
        RLock unquoted;

        @Inject
        @Named("profiled")
        RLock profiled;

        @Inject
        @Named("prod-only")
        RLock prodOnly;

        @Inject
        @Named("env-named")
        RLock envNamed;

        @Inject
        RedissonClient redisson;

        List<RLock> namedLocks() {
            return List.of(dotted, plain, unquoted, profiled, prodOnly, envNamed);
        }

        @Locked("guarded")
        public long guardedTtl() {
            return redisson.getKeys().remainTimeToLive("side-effects:guarded");
        }
    }

    @Inject
    Beans beans;

    @Test
    void everyFormIsReadAsBefore() {
        List<RLock> locks = beans.namedLocks();
        assertThat(locks.get(0)).as("quoted name with dots").isInstanceOf(RedissonFairLock.class);
        assertThat(locks.get(1)).as("unquoted name").isInstanceOf(RedissonFairLock.class);
        assertThat(locks.get(2)).as("unquoted name with dots").isInstanceOf(RedissonFairLock.class);
        assertThat(locks.get(3)).as("%test profile").isInstanceOf(RedissonFairLock.class);
        assertThat(locks.get(4)).as("%prod profile, not active").isNotInstanceOf(RedissonFairLock.class);
        assertThat(locks.get(5)).as("environment-variable form").isInstanceOf(RedissonFairLock.class);
    }

    @Test
    void environmentFormsReachPadlock() {
        // PADLOCK_REDIS_ADDRESS connects, PADLOCK_KEY_PREFIX names the key
        assertThat(beans.guardedTtl())
                .as("TTL of side-effects:guarded while held")
                .isPositive();
    }
}
