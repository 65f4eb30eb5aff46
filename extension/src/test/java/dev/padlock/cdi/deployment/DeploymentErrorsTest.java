package dev.padlock.cdi.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.OnWeld;
import dev.padlock.contract.InvalidLockedMethods;
import dev.padlock.contract.Refusal;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link InvalidLockedMethods} on Weld: misuse stops the container at start-up, every problem at once, each naming
 * class, method or key and the fix. Weld also reaches what a Quarkus build reports otherwise (ArC refuses a final
 * method itself; the address is run-time configuration there). Nothing here needs Redis: the deployment fails before
 * any connection.
 */
class DeploymentErrorsTest {

    @ApplicationScoped
    public static class FinalMethod {
        @Locked
        public final void finalMethod() {}
    }

    @Test
    void everyProblemIsReportedInOneFailedDeployment() {
        Map<String, String> config =
                new HashMap<>(InvalidLockedMethods.MEMBERS.application().config());
        config.put("padlock.redis.address", "nowhere");
        RuntimeException failure = Deployment.failing(config, InvalidLockedMethods.Broken.class, FinalMethod.class);

        InvalidLockedMethods.MEMBERS.check(failure);
        assertThat(Refusal.text(failure))
                .contains("Invalid @Locked on " + FinalMethod.class.getName() + "#finalMethod(): a private, static or"
                        + " final method is not intercepted")
                .contains("Invalid padlock.redis.address: 'nowhere' needs a scheme");
    }

    @Test
    void aBadUnsafeServerSettingFailsTheDeploymentNamingTheKeyAndTheChoices() {
        RuntimeException failure = Deployment.failing(
                Map.of("padlock.redis.unsafe-server", "sometimes", "padlock.redis.address", "redis://127.0.0.1:1"));

        assertThat(Refusal.text(failure))
                .contains("Invalid padlock.redis.unsafe-server: 'sometimes' is not a policy for a server that can void"
                        + " locks. Use one of warn, not-ready, fail (warn logs what the server check found;");
    }

    @Test
    void conflictingNamedLocksFailTheDeployment() {
        OnWeld.checkRefused(InvalidLockedMethods.NAMED_LOCKS);
    }
}
