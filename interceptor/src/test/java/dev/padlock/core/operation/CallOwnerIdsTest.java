package dev.padlock.core.operation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Owner ids of asynchronous calls must differ between applications, also when each application has its own copy
 * of Padlock (its own class loader) and they share one Redisson client: Redis tells owners apart by
 * {@code <client id>:<owner id>} only, so two applications handing out the same ids would re-enter each other's
 * locks.
 */
@ExtendWith(RedisExtension.class)
class CallOwnerIdsTest {

    @Test
    void twoCopiesOfPadlockHandOutDifferentOwnerIds() throws Exception {
        long first = firstOwnerOf(new OwnCopyLoader());
        long second = firstOwnerOf(new OwnCopyLoader());

        assertThat(first).isNegative();
        assertThat(second).isNegative().isNotEqualTo(first);
    }

    /** Why it matters: with one client, the same owner id is the same owner in Redis. */
    @Test
    void theSameOwnerIdOnOneClientReentersAnotherApplicationsLock(RedisServer redis) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient client = Redisson.create(config);
        try {
            RLock appA = client.getLock("padlock:owners");
            RLock appB = client.getLock("padlock:owners");
            assertThat(appA.tryLockAsync(0, 10_000, TimeUnit.MILLISECONDS, -1).get())
                    .isTrue();
            assertThat(appB.tryLockAsync(0, 10_000, TimeUnit.MILLISECONDS, -1).get())
                    .as("granted to the 'other' application")
                    .isTrue();
            assertThat(appB.tryLockAsync(0, 10_000, TimeUnit.MILLISECONDS, -2).get())
                    .isFalse();
        } finally {
            client.shutdown();
        }
    }

    private static long firstOwnerOf(ClassLoader loader) throws Exception {
        Class<?> operation = Class.forName(LockOperation.class.getName(), true, loader);
        assertThat(operation.getClassLoader()).isSameAs(loader);
        Method next = operation.getDeclaredMethod("nextCallOwner");
        next.setAccessible(true);
        return (long) next.invoke(null);
    }

    /** Loads Padlock's engine classes itself, as a second application bundling Padlock would. */
    private static final class OwnCopyLoader extends ClassLoader {
        OwnCopyLoader() {
            super(CallOwnerIdsTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (!name.startsWith("dev.padlock.core.") || name.endsWith("Test")) {
                    return super.loadClass(name, resolve);
                }
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    String resource = name.replace('.', '/') + ".class";
                    try (InputStream in = getParent().getResourceAsStream(resource)) {
                        if (in == null) {
                            throw new ClassNotFoundException(name);
                        }
                        byte[] bytes = in.readAllBytes();
                        loaded = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }
    }
}
