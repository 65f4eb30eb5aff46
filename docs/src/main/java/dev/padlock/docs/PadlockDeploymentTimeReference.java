package dev.padlock.docs;

import io.quarkus.runtime.annotations.ConfigDocDefault;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/**
 * The {@code padlock.*} keys read once, when the application is deployed: at build time on Quarkus, where the
 * reference marks them as fixed at build time. A separate root only for that mark; see
 * {@link PadlockConfigReference} for why these interfaces are documentation only.
 */
@ConfigMapping(prefix = "padlock")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface PadlockDeploymentTimeReference {

    /**
     * Where {@code @Locked} runs among interceptors; lower is outer. The default encloses JTA's
     * {@code @Transactional} (200), so the lock is taken before the transaction begins and released after it ends;
     * 200 or more puts the lock inside the transaction, which Padlock warns about at start-up. Read at deployment;
     * on Quarkus at build time, since ArC fixes the interceptor order then.
     */
    @ConfigDocDefault("100")
    Optional<String> interceptorPriority();
}
