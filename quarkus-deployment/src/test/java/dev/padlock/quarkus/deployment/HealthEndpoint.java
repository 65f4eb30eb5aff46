package dev.padlock.quarkus.deployment;

import io.quarkus.builder.Version;
import io.quarkus.maven.dependency.Dependency;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * SmallRye Health for one test application only ({@code setForcedDependencies}): on the module's test class path it
 * would bring an HTTP server into every other test's application too. And a GET of its endpoint.
 */
final class HealthEndpoint {

    private HealthEndpoint() {}

    static List<Dependency> extension() {
        return List.of(Dependency.of("io.quarkus", "quarkus-smallrye-health", Version.getVersion()));
    }

    static HttpResponse<String> get(URI uri) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }
}
