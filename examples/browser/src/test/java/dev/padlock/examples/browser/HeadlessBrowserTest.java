package dev.padlock.examples.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The browser against a page like the Dev UI's: text that only a custom element's shadow root holds, and a link inside
 * another shadow root that a script answers, as a client-side router would. And what the browser leaves behind: nothing,
 * whether it is closed or its JVM is killed.
 */
class HeadlessBrowserTest {

    private static final String PAGE = String.join(
            "\n",
            "<!doctype html><html><head><title>fixture</title></head><body>",
            "<h1>Light text</h1>",
            "<padlock-card></padlock-card>",
            "<script>",
            "customElements.define('padlock-card', class extends HTMLElement {",
            "  connectedCallback() {",
            "    const root = this.attachShadow({mode: 'open'});",
            // Rendered late, as Lit components render after their data arrives.
            "    setTimeout(() => {",
            "      root.innerHTML = '<p>Shadow text: Inventory#reserve</p><nested-link></nested-link>';",
            "    }, 300);",
            "  }",
            "});",
            "customElements.define('nested-link', class extends HTMLElement {",
            "  connectedCallback() {",
            "    const root = this.attachShadow({mode: 'open'});",
            "    root.innerHTML = '<a href=\"#\"><span>Locked methods</span></a>';",
            "    root.querySelector('a').addEventListener('click', (e) => {",
            "      e.preventDefault();",
            "      const shown = document.createElement('p');",
            "      shown.textContent = 'Clicked through two shadow roots';",
            "      document.body.appendChild(shown);",
            "    });",
            "  }",
            "});",
            "</script></body></html>");

    static HttpServer server;
    static URI page;

    @BeforeAll
    static void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = PAGE.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        page = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/card");
    }

    @AfterAll
    static void stopServing() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void findsTextInShadowRootsClicksThroughThemAndLeavesNothingBehind() throws IOException {
        HeadlessBrowser browser = HeadlessBrowser.start();
        List<ProcessHandle> processes;
        Path profile = browser.directory();
        Path screenshot = Path.of("target", "headless-browser", "fixture.png");
        try {
            browser.open(page);
            assertThat(browser.evaluate("document.title")).isEqualTo("fixture");

            assertThat(browser.awaitText("Inventory#reserve")).contains("Light text");
            assertThat(browser.evaluate("document.body.innerText"))
                    .as("the text sits in a shadow root, out of reach of innerText")
                    .asString()
                    .doesNotContain("Inventory#reserve");

            browser.clickText("Locked methods");
            browser.awaitText("Clicked through two shadow roots");

            Files.deleteIfExists(screenshot);
            browser.screenshot(screenshot);
            processes = browser.processes();
            assertThat(processes)
                    .as("the watcher, chromedriver, chromium and its helpers while open")
                    .hasSizeGreaterThan(3);
        } finally {
            browser.close();
        }

        byte[] png = Files.readAllBytes(screenshot);
        assertThat(Arrays.copyOf(png, 8))
                .as("PNG signature")
                .containsExactly(0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a);
        assertThat(processes).as("processes alive after close").noneMatch(HeadlessBrowser::isRunning);
        assertThat(naming(profile))
                .as("processes naming the profile after close")
                .isEmpty();
        assertThat(profile).doesNotExist();
    }

    @Test
    void aMissingTextFailsWithWhatThePageShows() {
        try (HeadlessBrowser browser = HeadlessBrowser.start()) {
            browser.open(page);

            assertThatThrownBy(() -> browser.awaitText("No such text", Duration.ofSeconds(2)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("waiting for the page to show \"No such text\"")
                    .hasMessageContaining(page.toString())
                    .hasMessageContaining("Light text");
        }
    }

    /** A JVM killed outright runs no shutdown hook: the watcher must end the driver and the browser by itself. */
    @Test
    void driverAndBrowserEndWhenTheJvmThatStartedThemIsKilled() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = List.of(
                java, "-cp", System.getProperty("java.class.path"), OrphanedBrowser.class.getName(), page.toString());
        Process jvm = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<ProcessHandle> browser = List.of();
        try {
            BufferedReader output =
                    new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            String line =
                    CompletableFuture.supplyAsync(() -> readStartedLine(output)).get(60, TimeUnit.SECONDS);
            Path profile = Path.of(line.split(" ")[1]);
            browser = naming(profile);
            assertThat(browser)
                    .as("the child JVM's watcher, driver and browser")
                    .hasSizeGreaterThan(3);

            jvm.destroyForcibly().waitFor(20, TimeUnit.SECONDS);

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while ((!naming(profile).isEmpty() || Files.exists(profile)) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(naming(profile))
                    .as("processes alive after their JVM was killed")
                    .isEmpty();
            assertThat(profile).as("the profile, removed by the watcher").doesNotExist();
        } finally {
            jvm.destroyForcibly();
            browser.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Every process of one browser names its directory: the watcher, the driver (its log), the browser and its
     * helpers (the profile), and the crash handlers, which run outside the driver's process group (their database).
     */
    private static List<ProcessHandle> naming(Path directory) {
        String marker = directory.toString();
        return ProcessHandle.allProcesses()
                .filter(process -> process.info()
                        .arguments()
                        .map(args -> String.join(" ", args).contains(marker))
                        .orElse(false))
                .toList();
    }

    private static String readStartedLine(BufferedReader output) {
        try {
            StringBuilder seen = new StringBuilder();
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith(OrphanedBrowser.STARTED)) {
                    return line;
                }
                seen.append(line).append('\n');
            }
            throw new IllegalStateException("The child JVM ended without starting a browser:\n" + seen);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
