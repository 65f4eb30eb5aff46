package dev.padlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The harness against a page like the Dev UI's: text that only a custom element's shadow root holds, and a link
 * inside another shadow root that a script answers, as a client-side router would.
 */
class HeadlessChromiumTest {

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
        HeadlessChromium browser = HeadlessChromium.start();
        List<ProcessHandle> processes;
        Path profile = browser.directory();
        Path screenshot = Path.of("target", "headless-chromium", "fixture.png");
        try {
            browser.open(page);
            assertThat(browser.evaluate("document.title")).isEqualTo("fixture");

            assertThat(browser.awaitText("Inventory#reserve")).contains("Light text");
            assertThat(browser.evaluate("document.body.innerText"))
                    .as("the text sits in a shadow root, out of reach of innerText")
                    .doesNotContain("Inventory#reserve");

            browser.clickText("Locked methods");
            browser.awaitText("Clicked through two shadow roots");

            Files.deleteIfExists(screenshot);
            browser.screenshot(screenshot);
            processes = browser.processes();
        } finally {
            browser.close();
        }

        byte[] png = Files.readAllBytes(screenshot);
        assertThat(Arrays.copyOf(png, 8))
                .as("PNG signature")
                .containsExactly(0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a);
        assertThat(processes).as("chromium and its helpers while open").isNotEmpty();
        assertThat(processes).as("chromium processes alive after close").noneMatch(ProcessHandle::isAlive);
        assertThat(profile).doesNotExist();
    }

    @Test
    void aMissingTextFailsWithWhatThePageShows() {
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.open(page);

            assertThatThrownBy(() -> browser.awaitText("No such text", Duration.ofSeconds(2)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("waiting for the page to show \"No such text\"")
                    .hasMessageContaining(page.toString())
                    .hasMessageContaining("Light text");
        }
    }
}
