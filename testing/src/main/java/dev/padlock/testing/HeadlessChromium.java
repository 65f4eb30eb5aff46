package dev.padlock.testing;

import dev.padlock.redisserver.Reaper;
import dev.padlock.redisserver.TempDirectories;
import dev.padlock.redisserver.Wait;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Drives a page in Debian's chromium for Dev UI tests: a real headless browser, started per instance with its own
 * throw-away profile and spoken to over the DevTools protocol with nothing but the JDK.
 *
 * <p>Quarkus's Dev UI is made of Lit web components, so its text sits in shadow roots that
 * {@code document.body.innerText} does not see; {@link #awaitText} and {@link #clickText} look through open shadow
 * roots. Every wait is bounded by a generous timeout, which only keeps a broken page from hanging the build: it says
 * nothing about speed.
 *
 * <pre>{@code
 * try (HeadlessChromium browser = HeadlessChromium.start()) {
 *     browser.open(URI.create("http://localhost:8080/q/dev-ui/extensions"));
 *     browser.awaitText("Padlock");
 *     browser.clickText("Locked methods");
 *     browser.awaitText("Inventory#reserve");
 *     browser.screenshot(Path.of("target/dev-ui/locked-methods.png"));
 * }
 * }</pre>
 *
 * <p>The executable is {@code chromium} (or {@code chromium-browser}, {@code google-chrome}) from the PATH, or the
 * one named by {@code -Dpadlock.test.chromium=<path>}. When there is none and the tests run as root on a machine with
 * {@code apt-get}, Debian's {@code chromium} package is installed; otherwise {@link #start()} fails, naming how to
 * install it. No browser is ever downloaded. {@link #close()} ends the browser with all its helper processes and
 * deletes the profile, as does a JVM shutdown hook should a test never get to close it, and a watcher shell should
 * the JVM be killed outright.
 */
public final class HeadlessChromium implements AutoCloseable {

    /** How long {@link #awaitText} and {@link #clickText} wait by default: a first Dev UI load compiles a lot. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(90);

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);
    private static final long POLL_MILLIS = 200;
    private static final int TEXT_IN_MESSAGES = 2_000;

    /*
     * Chromium forks zygote, GPU and renderer helpers. setsid gives the browser a process group of its own, so that
     * the guard can end all of it with one signal when the JVM is gone (a SIGKILLed JVM runs no shutdown hook), and
     * the shell then deletes the profile.
     */
    private static final String WATCHER_SCRIPT = String.join(
            "\n",
            "jvm=$1; dir=$2; shift 2",
            "if command -v setsid >/dev/null 2>&1; then setsid \"$@\" & else \"$@\" & fi",
            "child=$!",
            "(",
            "  while kill -0 \"$jvm\" 2>/dev/null; do sleep 1; done",
            "  kill -9 -- -\"$child\" 2>/dev/null || kill -9 \"$child\" 2>/dev/null",
            ") &",
            "guard=$!",
            "wait \"$child\"",
            "status=$?",
            "kill \"$guard\" 2>/dev/null",
            "if ! kill -0 \"$jvm\" 2>/dev/null && [ -n \"$dir\" ]; then rm -rf \"$dir\"; fi",
            "exit \"$status\"");

    /** The text of a node including open shadow roots, whitespace collapsed; scripts and styles left out. */
    private static final String DEEP_TEXT_FUNCTION = String.join(
            "\n",
            "const deepText = (root) => {",
            "  const parts = [];",
            "  const walk = (n) => {",
            "    if (n.nodeType === Node.TEXT_NODE) { parts.push(n.textContent); return; }",
            "    if (n.nodeType === Node.ELEMENT_NODE) {",
            "      if (n.localName === 'script' || n.localName === 'style') return;",
            "      if (n.shadowRoot) walk(n.shadowRoot);",
            "    }",
            "    for (const c of n.childNodes) walk(c);",
            "  };",
            "  walk(root);",
            "  return parts.join(' ').replace(/\\s+/g, ' ').trim();",
            "};");

    private final Path binary;
    private final Path dir;
    private final Path log;
    private final Connection connection;
    private final String sessionId;
    /** Kept off the public API: the shutdown hook's handle on this browser. */
    private final Reaper.Reapable reaper = this::reap;

    /** The watcher shell, chromium its child; set early so the shutdown hook can end a browser still starting. */
    private volatile Process launched;

    private boolean closed;

    private HeadlessChromium(Path binary) {
        this.binary = binary;
        try {
            this.dir = Files.createTempDirectory("padlock-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary profile directory for chromium", e);
        }
        this.log = dir.resolve("chromium.log");
        Reaper.register(reaper);
        Connection opened = null;
        try {
            launched = launch();
            opened = connect(launched);
            Map<String, Object> target = opened.call(null, "Target.createTarget", Map.of("url", "about:blank"));
            Map<String, Object> attached = opened.call(
                    null, "Target.attachToTarget", Map.of("targetId", target.get("targetId"), "flatten", true));
            this.sessionId = (String) attached.get("sessionId");
        } catch (RuntimeException | Error e) {
            if (opened != null) {
                opened.abort();
            }
            killTree(launched);
            TempDirectories.delete(dir);
            Reaper.unregister(reaper);
            throw e;
        }
        this.connection = opened;
    }

    /**
     * Starts a headless browser with a fresh profile and one blank page.
     *
     * @throws IllegalStateException when no Chromium can be found or installed (the message says how to get one),
     *     or when it does not start
     */
    public static HeadlessChromium start() {
        return new HeadlessChromium(ChromiumBinary.find());
    }

    /** Navigates the page to {@code url} and waits until its document has loaded ({@code readyState} complete). */
    public void open(URI url) {
        Map<String, Object> navigated = command("Page.navigate", Map.of("url", url.toString()));
        Object error = navigated.get("errorText");
        if (error != null && !error.toString().isEmpty()) {
            throw new IllegalStateException("Chromium could not open " + url + ": " + error);
        }
        poll("the page " + url + " to load", COMMAND_TIMEOUT, () -> "complete".equals(evaluate("document.readyState")));
    }

    /**
     * Evaluates a JavaScript expression in the page, awaiting it if it is a promise.
     *
     * @return the value as a string: a string as it is, {@code null} for null or undefined, anything else as JSON
     * @throws IllegalStateException when the expression throws
     */
    public String evaluate(String expression) {
        Map<String, Object> reply = command(
                "Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        Object exception = reply.get("exceptionDetails");
        if (exception != null) {
            throw new IllegalStateException(
                    "JavaScript failed in the page: " + describe(exception) + "\nExpression: " + shorten(expression));
        }
        Object value = ((Map<?, ?>) reply.get("result")).get("value");
        if (value == null || value instanceof String) {
            return (String) value;
        }
        return Json.write(value);
    }

    /** The page's text including open shadow roots, whitespace collapsed. */
    public String deepText() {
        return evaluate("(() => {" + DEEP_TEXT_FUNCTION + " return deepText(document); })()");
    }

    /** Waits up to {@link #DEFAULT_TIMEOUT} until {@link #deepText()} contains {@code expected}; returns that text. */
    public String awaitText(String expected) {
        return awaitText(expected, DEFAULT_TIMEOUT);
    }

    /**
     * Waits until {@link #deepText()} contains {@code expected}.
     *
     * @return the page's deep text that contained it
     * @throws IllegalStateException after {@code timeout}, with the URL and the page's text at that moment
     */
    public String awaitText(String expected, Duration timeout) {
        String[] last = {""};
        poll("the page to show \"" + expected + "\"", timeout, () -> (last[0] = deepText()).contains(expected), () -> {
            String seen = last[0];
            return "Page " + currentUrl() + " shows: " + shorten(seen);
        });
        return last[0];
    }

    /**
     * Clicks, as a user would with the mouse, the innermost visible element whose text (open shadow roots included)
     * contains {@code text}; waits up to {@link #DEFAULT_TIMEOUT} for one to appear. Whatever lies on top at that
     * element's centre receives the click, as in a real browser.
     */
    public void clickText(String text) {
        String script = "((needle) => {" + DEEP_TEXT_FUNCTION
                + " const all = [];"
                + " const collect = (root) => { for (const el of root.querySelectorAll('*')) {"
                + "   all.push(el); if (el.shadowRoot) collect(el.shadowRoot); } };"
                + " collect(document);"
                + " let best = null, bestLength = Infinity;"
                + " for (const el of all) {"
                + "   const box = el.getBoundingClientRect();"
                + "   if (box.width === 0 || box.height === 0) continue;"
                + "   const t = deepText(el);"
                + "   if (t.includes(needle) && t.length < bestLength) { best = el; bestLength = t.length; }"
                + " }"
                + " if (!best) return '';"
                + " best.scrollIntoView({block: 'center', inline: 'center'});"
                + " const box = best.getBoundingClientRect();"
                + " return (box.left + box.width / 2) + ',' + (box.top + box.height / 2);"
                + "})(" + Json.write(text) + ")";
        String[] centre = {""};
        poll(
                "a visible element with the text \"" + text + "\" to click",
                DEFAULT_TIMEOUT,
                () -> !(centre[0] = evaluate(script)).isEmpty(),
                () -> "Page " + currentUrl() + " shows: " + shorten(deepText()));
        String[] xy = centre[0].split(",");
        double x = Double.parseDouble(xy[0]);
        double y = Double.parseDouble(xy[1]);
        command("Input.dispatchMouseEvent", Map.of("type", "mouseMoved", "x", x, "y", y));
        for (String type : List.of("mousePressed", "mouseReleased")) {
            command(
                    "Input.dispatchMouseEvent",
                    Map.of("type", type, "x", x, "y", y, "button", "left", "buttons", 1, "clickCount", 1));
        }
    }

    /** The page's current address (client-side routers change it without a load). */
    public String currentUrl() {
        return evaluate("location.href");
    }

    /** Saves what the viewport shows as a PNG file, creating its folder; returns {@code file}. */
    public Path screenshot(Path file) {
        Map<String, Object> shot = command("Page.captureScreenshot", Map.of("format", "png"));
        byte[] png = Base64.getDecoder().decode((String) shot.get("data"));
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.write(file, png);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the screenshot to " + file, e);
        }
        return file;
    }

    /** The browser's processes now (its helpers included), for tests that prove none outlives {@link #close()}. */
    List<ProcessHandle> processes() {
        return launched.descendants().toList();
    }

    /** The throw-away directory holding the profile; gone after {@link #close()}. */
    Path directory() {
        return dir;
    }

    /** Asks the browser to quit, then ends whatever of it is left, and deletes the profile. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Taken before the browser quits: helpers whose parent has died are no longer its descendants.
        List<ProcessHandle> tree = processes();
        try {
            connection.call(null, "Browser.close", Map.of());
        } catch (RuntimeException alreadyGone) {
            // It may drop the connection before answering; whatever is left is killed below.
        }
        connection.abort();
        try {
            if (!launched.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                killTree(launched);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            tree.forEach(ProcessHandle::destroyForcibly);
            killTree(launched);
            awaitDeath(tree);
            TempDirectories.delete(dir);
            Reaper.unregister(reaper);
        }
    }

    /** Runs from the shutdown hook, also while the constructor is still starting the browser: quick, never throws. */
    private void reap() {
        killTree(launched);
        TempDirectories.delete(dir);
    }

    private Process launch() {
        Path profile = dir.resolve("profile");
        List<String> command = new ArrayList<>(List.of(
                "/bin/sh",
                "-c",
                WATCHER_SCRIPT,
                "padlock-chromium-watcher",
                String.valueOf(ProcessHandle.current().pid()),
                dir.toString(),
                binary.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--mute-audio",
                "--window-size=1600,1000",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                "about:blank"));
        try {
            return new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot launch " + binary + " through /bin/sh", e);
        }
    }

    /** Port 0 lets Chromium pick a free port; it writes the port and the browser's socket path to the profile. */
    private Connection connect(Process shell) {
        Path activePort = dir.resolve("profile").resolve("DevToolsActivePort");
        List<String> lines = Wait.until(
                binary + " to write " + activePort,
                STARTUP_TIMEOUT,
                () -> {
                    if (!shell.isAlive()) {
                        throw new IllegalStateException(
                                binary + " exited with status " + shell.exitValue() + " while starting\n" + logTail());
                    }
                    if (!Files.exists(activePort)) {
                        return null;
                    }
                    List<String> read = Files.readAllLines(activePort, StandardCharsets.UTF_8);
                    return read.size() >= 2 && !read.get(1).isBlank() ? read : null;
                },
                this::logTail);
        URI socket = URI.create(
                "ws://127.0.0.1:" + lines.get(0).trim() + lines.get(1).trim());
        return Connection.open(socket, this::logTail);
    }

    private Map<String, Object> command(String method, Map<String, Object> params) {
        if (closed) {
            throw new IllegalStateException("This HeadlessChromium has been closed");
        }
        return connection.call(sessionId, method, params);
    }

    private void poll(String what, Duration timeout, Check check) {
        poll(what, timeout, check, () -> "");
    }

    /**
     * A script may fail while the page replaces its document (a navigation the page starts itself): that counts as
     * "not yet", up to the timeout, unless the browser itself is gone.
     */
    private void poll(String what, Duration timeout, Check check, Supplier<String> diagnostics) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException lastFailure = null;
        while (true) {
            try {
                if (check.passes()) {
                    return;
                }
            } catch (IllegalStateException e) {
                if (connection.isClosed()) {
                    throw e;
                }
                lastFailure = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                String seen;
                try {
                    seen = diagnostics.get();
                } catch (RuntimeException e) {
                    seen = "(cannot read the page: " + e.getMessage() + ")";
                }
                throw new IllegalStateException(
                        "Timed out after " + timeout.toSeconds() + " s waiting for " + what + ". " + seen
                                + (lastFailure == null ? "" : "\nLast failure: " + lastFailure.getMessage()),
                        lastFailure);
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + what, e);
            }
        }
    }

    @FunctionalInterface
    private interface Check {
        boolean passes();
    }

    private static void killTree(Process shell) {
        if (shell == null) {
            return;
        }
        shell.descendants().forEach(ProcessHandle::destroyForcibly);
        shell.destroyForcibly();
    }

    private static void awaitDeath(List<ProcessHandle> processes) {
        long deadline = System.nanoTime() + EXIT_TIMEOUT.toNanos();
        for (ProcessHandle process : processes) {
            try {
                process.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // Checked by whoever cares (the harness's own test); close() must not throw for it.
            }
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "--- last lines of " + log + " ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no chromium log at " + log + ")";
        }
    }

    private static String describe(Object exceptionDetails) {
        Map<?, ?> details = (Map<?, ?>) exceptionDetails;
        Object exception = details.get("exception");
        if (exception instanceof Map<?, ?> thrown && thrown.get("description") != null) {
            return thrown.get("description").toString();
        }
        return String.valueOf(details.get("text"));
    }

    private static String shorten(String text) {
        return text.length() <= TEXT_IN_MESSAGES ? text : text.substring(0, TEXT_IN_MESSAGES) + "…";
    }

    /** One DevTools WebSocket: commands carry ids and wait for the reply with the same id; events are ignored. */
    private static final class Connection implements WebSocket.Listener {
        private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
        private final AtomicInteger ids = new AtomicInteger();
        private final StringBuilder partial = new StringBuilder();
        private final Supplier<String> diagnostics;
        private volatile WebSocket socket;
        private volatile String closedBecause;

        private Connection(Supplier<String> diagnostics) {
            this.diagnostics = diagnostics;
        }

        static Connection open(URI uri, Supplier<String> diagnostics) {
            Connection connection = new Connection(diagnostics);
            try {
                connection.socket = HttpClient.newHttpClient()
                        .newWebSocketBuilder()
                        .connectTimeout(COMMAND_TIMEOUT)
                        .buildAsync(uri, connection)
                        .get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException(
                        "Cannot open the DevTools connection " + uri + ": " + e + "\n" + diagnostics.get(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while connecting to " + uri, e);
            }
            return connection;
        }

        Map<String, Object> call(String sessionId, String method, Map<String, Object> params) {
            int id = ids.incrementAndGet();
            Map<String, Object> message = new LinkedHashMap<>();
            message.put("id", id);
            if (sessionId != null) {
                message.put("sessionId", sessionId);
            }
            message.put("method", method);
            message.put("params", params);
            CompletableFuture<Map<String, Object>> reply = new CompletableFuture<>();
            pending.put(id, reply);
            try {
                if (closedBecause != null) {
                    throw new IllegalStateException("The DevTools connection is closed: " + closedBecause);
                }
                synchronized (this) {
                    // One send at a time: the JDK's WebSocket refuses a send while another is under way.
                    socket.sendText(Json.write(message), true).get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                }
                Map<String, Object> answer = reply.get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                Object error = answer.get("error");
                if (error != null) {
                    throw new IllegalStateException("Chromium refused " + method + ": " + Json.write(error));
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> result = (Map<String, Object>) answer.getOrDefault("result", Map.of());
                return result;
            } catch (TimeoutException e) {
                throw new IllegalStateException(
                        "Chromium did not answer " + method + " within " + COMMAND_TIMEOUT.toSeconds() + " s\n"
                                + diagnostics.get(),
                        e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("DevTools call " + method + " failed: " + e.getCause(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + method, e);
            } finally {
                pending.remove(id);
            }
        }

        boolean isClosed() {
            return closedBecause != null;
        }

        void abort() {
            WebSocket open = socket;
            if (open != null) {
                open.abort();
            }
            fail("closed by the test");
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                Object parsed = Json.parse(text);
                if (parsed instanceof Map<?, ?> message && message.get("id") instanceof Number id) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> reply = (Map<String, Object>) message;
                    CompletableFuture<Map<String, Object>> waiting = pending.get(id.intValue());
                    if (waiting != null) {
                        waiting.complete(reply);
                    }
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            fail("closed by Chromium (" + statusCode + " " + reason + ")");
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            fail(error.toString());
        }

        private void fail(String why) {
            if (closedBecause == null) {
                closedBecause = why;
            }
            IllegalStateException closed = new IllegalStateException("The DevTools connection ended: " + why);
            pending.values().forEach(waiting -> waiting.completeExceptionally(closed));
        }
    }
}
