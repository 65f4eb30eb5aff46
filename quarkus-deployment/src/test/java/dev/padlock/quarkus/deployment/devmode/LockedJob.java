package dev.padlock.quarkus.deployment.devmode;

import dev.padlock.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.redisson.api.RedissonClient;

@ApplicationScoped
public class LockedJob {

    @Inject
    RedissonClient redisson;

    @Locked("dev-mode")
    public String addressWhileHeld() {
        return redisson.getLock("padlock:dev-mode").isLocked()
                ? redisson.getConfig().useSingleServer().getAddress()
                : "not held";
    }
}
