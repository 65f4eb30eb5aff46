package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.contract.ReadinessContract;
import io.quarkus.test.QuarkusExtensionTest;
import io.quarkus.test.common.http.TestHTTPResource;
import java.net.URI;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ReadinessContract} on Quarkus with SmallRye Health, where Padlock's readiness check is also listed in
 * /q/health/ready.
 */
class ReadinessOnQuarkusTest extends ReadinessContract {

    @RegisterExtension
    static final QuarkusExtensionTest app =
            OnQuarkus.of(APPLICATION.and(HealthEndpoint.class)).setForcedDependencies(HealthEndpoint.extension());

    @TestHTTPResource("/q/health/ready")
    URI ready;

    @Test
    void theReadinessEndpointListsIt() throws Exception {
        bean(Job.class).run(); // the client is connected once a locked call has run

        HttpResponse<String> answer = HealthEndpoint.get(ready);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
                .containsPattern("\"name\"\\s*:\\s*\"padlock\"")
                .contains(TestRedis.uri());
    }
}
