package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusExtensionTest;
import io.quarkus.test.common.http.TestHTTPResource;
import java.net.URI;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A password in {@code padlock.redis.password} and another in the address, which the harness Redis (it has none)
 * refuses: the readiness check is down with a reason, and neither password is anywhere in the endpoint's JSON.
 */
class ReadinessHidesThePasswordOnQuarkusTest {

    static final String CONFIGURED_SECRET = "k3y-Pa55word";
    static final String ADDRESS_SECRET = "addr-S3cret";

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedis.class, HealthEndpoint.class))
            .setForcedDependencies(HealthEndpoint.extension())
            .overrideConfigKey(
                    "padlock.redis.address", TestRedis.uri().replace("redis://", "redis://app:" + ADDRESS_SECRET + "@"))
            .overrideConfigKey("padlock.redis.password", CONFIGURED_SECRET);

    @TestHTTPResource("/q/health/ready")
    URI ready;

    @Test
    void downWithAReasonAndNeitherPassword() throws Exception {
        HttpResponse<String> answer = HealthEndpoint.get(ready);
        for (int tries = 0; answer.body().contains("\"connecting\"") && tries < 300; tries++) {
            Thread.sleep(100);
            answer = HealthEndpoint.get(ready);
        }

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body())
                .containsPattern("\"name\"\\s*:\\s*\"padlock\"")
                .containsPattern("\"reason\"\\s*:\\s*\"Redis refused the username or password \\(WRONGPASS")
                .contains("padlock.redis.username and padlock.redis.password")
                .contains("redis://***@", "(password set)")
                .doesNotContain(CONFIGURED_SECRET, ADDRESS_SECRET);
    }
}
