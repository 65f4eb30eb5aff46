package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.quarkus.runtime.internal.PadlockDevUIService;
import dev.padlock.quarkus.runtime.internal.PadlockRuntime;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusExtensionTest;
import io.quarkus.test.common.http.TestHTTPResource;
import java.lang.reflect.Field;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server check on Quarkus, on a Redis of its own with a {@code maxmemory} and {@code volatile-lru}: with
 * {@code padlock.redis.unsafe-server=not-ready}, {@code /q/health/ready} is down (503) and shows the finding, and the
 * Dev UI's live page (its JSON-RPC service) lists it.
 */
class ServerFindingsOnQuarkusTest {

    private static final String PROPERTY = "padlock.quarkus-tests.redis.evicting";

    /** Shared through a system property: the class is loaded by JUnit's and by Quarkus's class loader. */
    static synchronized String uri() {
        String uri = System.getProperty(PROPERTY);
        if (uri == null) {
            RedisServer server = Redis.startServer();
            server.command("CONFIG", "SET", "maxmemory", "50mb");
            server.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
            uri = server.uri();
            System.setProperty(PROPERTY, uri);
        }
        return uri;
    }

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(ServerFindingsOnQuarkusTest.class, HealthEndpoint.class))
            .setForcedDependencies(HealthEndpoint.extension())
            .overrideConfigKey("padlock.redis.address", uri())
            .overrideConfigKey("padlock.redis.unsafe-server", "not-ready");

    @TestHTTPResource("/q/health/ready")
    URI ready;

    @Test
    void readinessIsDownWithTheFindingAndTheDevUiListsIt() throws Exception {
        HttpResponse<String> answer = HealthEndpoint.get(ready);
        for (int tries = 0; !answer.body().contains("\"findings\"") && tries < 300; tries++) {
            Thread.sleep(100);
            answer = HealthEndpoint.get(ready);
        }

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body())
                .containsPattern("\"name\"\\s*:\\s*\"padlock\"")
                .contains("UNSAFE: Redis at ", "maxmemory-policy is volatile-lru")
                .contains("padlock.redis.unsafe-server=not-ready keeps readiness down until that is fixed");

        List<Map<String, Object>> rows = serverRows(devUi().liveLocks());
        assertThat(rows).anySatisfy(row -> assertThat(row)
                .containsEntry("severity", "UNSAFE")
                .containsEntry("setting", "maxmemory-policy")
                .containsEntry("value", "volatile-lru"));
    }

    /** The Dev UI's service (a bean in dev mode only), over this application's Padlock. */
    private static PadlockDevUIService devUi() throws ReflectiveOperationException {
        PadlockDevUIService service = new PadlockDevUIService();
        Field padlock = PadlockDevUIService.class.getDeclaredField("padlock");
        padlock.setAccessible(true);
        padlock.set(service, Arc.container().instance(PadlockRuntime.class).get());
        return service;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> serverRows(Map<String, Object> page) {
        assertThat(page).containsEntry("serverChecked", true);
        return (List<Map<String, Object>>) page.get("server");
    }
}
