package dev.padlock.quarkus.deployment.devmode;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.client.codec.StringCodec;

/**
 * Logs, at each (re)start, which Redis the application runs on: the address a lock was just held on, that
 * server's {@code run_id} and {@code process_id} (a restarted redis-server gets a new {@code run_id}), and the
 * marker the previous start left in it, which this start replaces with its own version. The dev-mode tests edit
 * {@link #VERSION} to tell the code before a live reload from the code after it.
 */
@ApplicationScoped
public class StartupReport {

    static final String VERSION = "version-1";

    @Inject
    LockedJob job;

    @Inject
    RedissonClient redisson;

    void report(@Observes StartupEvent event) {
        String address = job.addressWhileHeld();
        Map<String, String> server =
                redisson.getRedisNodes(RedisNodes.SINGLE).getInstance().info(RedisNode.InfoSection.SERVER);
        String previous = redisson.<String>getBucket("padlock:dev-mode:marker", StringCodec.INSTANCE)
                .getAndSet(VERSION);
        Logger.getLogger(StartupReport.class)
                .infof(
                        "padlock-dev-mode %s run_id=%s process_id=%s marker=%s %s",
                        address,
                        server.get("run_id"),
                        server.get("process_id"),
                        Objects.requireNonNullElse(previous, "none"),
                        VERSION);
    }
}
