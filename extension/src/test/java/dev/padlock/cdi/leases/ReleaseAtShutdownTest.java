package dev.padlock.cdi.leases;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An application stopping cleanly leaves no key held that one of its calls released, or that an acquisition in doubt
 * undid: the release under way when it stops is answered before Padlock's client shuts down. Before, the client's
 * shutdown cut the unlock off, and the key stayed held for its lease (30 s here); that is how {@code WaitRefusedTest}
 * found a key of a stopped application, whose refused acquisition's undo was still on its way. Here Redis holds the
 * unlock back for a moment (a write pause), and the application stops meanwhile.
 */
@ExtendWith(RedisExtension.class)
class ReleaseAtShutdownTest {

    @ApplicationScoped
    public static class Job {
        @Locked("stopping")
        public void hold(CountDownLatch leave) {
            Waits.await(leave);
        }
    }

    @Test
    void aReleaseUnderWayWhenTheApplicationStopsReachesRedis(RedisServer redis) throws Exception {
        redis.flushAll();
        Thread caller;
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Job.class)) {
            PadlockEngine engine = app.bean(PadlockEngine.class);
            CountDownLatch leave = new CountDownLatch(1);
            caller = new Thread(() -> app.bean(Job.class).hold(leave));
            caller.start();
            Waits.until(() -> !engine.liveLocks().held().isEmpty(), "the call holding its lock");

            redis.command("CLIENT", "PAUSE", "1500", "WRITE");
            leave.countDown();
            Waits.until(() -> engine.liveLocks().held().isEmpty(), "the call's release begun");
        } // stops the application while the unlock waits out the pause
        caller.join(TimeUnit.SECONDS.toMillis(10));

        Waits.until(() -> (Long) redis.command("EXISTS", "padlock:stopping") == 0, "the key released");
    }
}
