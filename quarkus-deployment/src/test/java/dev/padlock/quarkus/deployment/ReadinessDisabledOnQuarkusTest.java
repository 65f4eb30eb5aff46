package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusExtensionTest;
import io.quarkus.test.common.http.TestHTTPResource;
import java.net.URI;
import java.net.http.HttpResponse;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code quarkus.padlock.health.enabled=false}: no Padlock check, in the beans or in /q/health/ready. */
class ReadinessDisabledOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedis.class, HealthEndpoint.class))
            .setForcedDependencies(HealthEndpoint.extension())
            .overrideConfigKey("padlock.redis.address", TestRedis.uri())
            .overrideConfigKey("quarkus.padlock.health.enabled", "false");

    @TestHTTPResource("/q/health/ready")
    URI ready;

    @Test
    void theCheckIsAbsent() throws Exception {
        assertThat(Arc.container().select(HealthCheck.class, Readiness.Literal.INSTANCE).stream())
                .noneMatch(check -> check.getClass().getName().startsWith(PadlockHealthProcessor.READINESS_CHECK));

        HttpResponse<String> answer = HealthEndpoint.get(ready);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).contains("\"checks\"").doesNotContain("padlock");
    }
}
