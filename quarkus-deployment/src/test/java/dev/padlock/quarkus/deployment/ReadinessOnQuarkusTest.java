package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import io.quarkus.test.common.http.TestHTTPResource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpResponse;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** With SmallRye Health, Padlock's readiness check is in /q/health/ready, up with the address on a real Redis. */
class ReadinessOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Job.class, TestRedis.class, HealthEndpoint.class))
            .setForcedDependencies(HealthEndpoint.extension())
            .overrideConfigKey("padlock.redis.address", TestRedis.uri());

    @ApplicationScoped
    public static class Job {
        @Locked("job")
        public String run() {
            return "ran";
        }
    }

    @Inject
    @Readiness
    HealthCheck readiness;

    @Inject
    Job job;

    @TestHTTPResource("/q/health/ready")
    URI ready;

    @Test
    void theCheckIsUpWithTheAddress() {
        job.run(); // the client is connected once a locked call has run

        HealthCheckResponse response = readiness.call();

        assertThat(response.getName()).isEqualTo("padlock");
        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(response.getData().orElseThrow()).containsEntry("address", "single [" + TestRedis.uri() + "]");
    }

    @Test
    void theReadinessEndpointListsIt() throws Exception {
        job.run();

        HttpResponse<String> answer = HealthEndpoint.get(ready);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
                .containsPattern("\"name\"\\s*:\\s*\"padlock\"")
                .contains(TestRedis.uri());
    }
}
