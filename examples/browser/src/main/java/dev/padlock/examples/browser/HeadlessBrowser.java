package dev.padlock.examples.browser;

import dev.padlock.redisserver.ProcessWatcher;
import dev.padlock.redisserver.TempDirectories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.openqa.selenium.JavascriptException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.FluentWait;

/**
 * A page in the system's headless Chromium, driven through its chromedriver with Selenium, for the examples' Dev UI
 * checks. Each instance has a browser, a driver and a throw-away profile of its own.
 *
 * <p>Quarkus's Dev UI is made of Lit web components, so its text sits in shadow roots that
 * {@code document.body.innerText} and CSS selectors do not see; {@link #awaitText} and {@link #clickText} look through
 * open shadow roots. Every wait is bounded by a generous timeout, which only keeps a broken page from hanging the build:
 * it says nothing about speed.
 *
 * <pre>{@code
 * try (HeadlessBrowser browser = HeadlessBrowser.start()) {
 *     browser.open(URI.create("http://localhost:8080/q/dev-ui/extensions"));
 *     browser.awaitText("Padlock");
 *     browser.clickText("Locked methods");
 *     browser.awaitText("Inventory#reserve");
 *     browser.screenshot(Path.of("target/dev-ui/locked-methods.png"));
 * }
 * }</pre>
 *
 * <p>The browser and driver are found as {@link BrowserExecutables} says; Selenium is handed the driver's path, so its
 * Selenium Manager never looks for, or downloads, anything. The driver runs under a {@link ProcessWatcher} of this
 * JVM, and the browser as its child: should the JVM be killed outright, the watcher ends both and deletes the profile.
 * {@link #close()} quits them, also after a failure.
 */
public final class HeadlessBrowser implements AutoCloseable {

    /** How long {@link #awaitText} and {@link #clickText} wait by default: a first Dev UI load compiles a lot. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(90);

    /**
     * The watcher's name in {@code ps}; the profile and the driver's log lie in a {@code padlock-chromium-*} directory,
     * which the command lines of the browser and the driver name: CI looks for both to find what a build left.
     */
    static final String WATCHER_NAME = "padlock-chromium-watcher";

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);
    private static final int TEXT_IN_MESSAGES = 2_000;

    private static final List<String> ARGUMENTS = List.of(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--hide-scrollbars",
            "--mute-audio",
            "--window-size=1600,1000");

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

    /**
     * The centre, in viewport pixels, of the innermost visible element whose deep text contains arguments[0], scrolled
     * into view; null when there is none.
     */
    private static final String FIND_TEXT_SCRIPT = DEEP_TEXT_FUNCTION
            + "\nconst needle = arguments[0];"
            + "\nconst all = [];"
            + "\nconst collect = (root) => { for (const el of root.querySelectorAll('*')) {"
            + "\n  all.push(el); if (el.shadowRoot) collect(el.shadowRoot); } };"
            + "\ncollect(document);"
            + "\nlet best = null, bestLength = Infinity;"
            + "\nfor (const el of all) {"
            + "\n  const box = el.getBoundingClientRect();"
            + "\n  if (box.width === 0 || box.height === 0) continue;"
            + "\n  const t = deepText(el);"
            + "\n  if (t.includes(needle) && t.length < bestLength) { best = el; bestLength = t.length; }"
            + "\n}"
            + "\nif (!best) return null;"
            + "\nbest.scrollIntoView({block: 'center', inline: 'center'});"
            + "\nconst box = best.getBoundingClientRect();"
            + "\nreturn [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];";

    private final Path dir;
    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private boolean closed;

    private HeadlessBrowser(BrowserExecutables executables) {
        try {
            this.dir = Files.createTempDirectory("padlock-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary directory for the browser's profile", e);
        }
        ChromeDriverService started = null;
        try {
            started = new ChromeDriverService.Builder()
                    .usingDriverExecutable(ProcessWatcher.script(WATCHER_NAME, dir, executables.driver())
                            .toFile())
                    .usingAnyFreePort()
                    .withLogFile(driverLog().toFile())
                    // Chromium's crash handler keeps its reports under the configuration folder: this one goes too.
                    .withEnvironment(
                            Map.of("XDG_CONFIG_HOME", dir.resolve("config").toString()))
                    .build();
            ChromeOptions options = new ChromeOptions();
            options.setBinary(executables.browser().toFile());
            options.addArguments(ARGUMENTS);
            options.addArguments("--user-data-dir=" + dir.resolve("profile"));
            this.service = started;
            this.driver = new ChromeDriver(started, options);
        } catch (RuntimeException | Error e) {
            if (started != null) {
                started.stop();
            }
            endProcesses();
            String log = driverLogTail();
            TempDirectories.delete(dir);
            throw new IllegalStateException(
                    executables.driver() + " could not start " + executables.browser() + ": " + e.getMessage()
                            + "\nThe driver must be the browser's own version (Debian's chromium-driver is its"
                            + " chromium's).\n" + log,
                    e);
        }
    }

    /**
     * Starts a headless browser with a fresh profile and one blank page.
     *
     * @throws IllegalStateException when the browser or the driver is missing (the message says how to get them), or
     *     when they do not start
     */
    public static HeadlessBrowser start() {
        return new HeadlessBrowser(BrowserExecutables.find());
    }

    /** Navigates to {@code url} and waits until its document has loaded ({@code readyState} complete). */
    public void open(URI url) {
        live().get(url.toString());
    }

    /** The value of a JavaScript expression in the page, as Selenium returns it (String, Long, Boolean, List, Map). */
    public Object evaluate(String expression) {
        return live().executeScript("return (" + expression + ");");
    }

    /** The page's text including open shadow roots, whitespace collapsed. */
    public String deepText() {
        return (String) live().executeScript(DEEP_TEXT_FUNCTION + "\nreturn deepText(document);");
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
        return poll(
                "the page to show \"" + expected + "\"",
                timeout,
                page -> (last[0] = deepText()).contains(expected) ? last[0] : null,
                () -> "Page " + currentUrl() + " shows: " + shorten(last[0]));
    }

    /**
     * Clicks, as a user would with the mouse, the innermost visible element whose text (open shadow roots included)
     * contains {@code text}; waits up to {@link #DEFAULT_TIMEOUT} for one to appear. The click is a pointer click at
     * the element's centre, so whatever lies on top there receives it, as in a real browser. (WebDriver's own element
     * click cannot reach into every shadow root: chromedriver fails on some Dev UI links.)
     */
    public void clickText(String text) {
        List<?> centre = poll(
                "a visible element with the text \"" + text + "\" to click",
                DEFAULT_TIMEOUT,
                page -> (List<?>) live().executeScript(FIND_TEXT_SCRIPT, text),
                () -> "Page " + currentUrl() + " shows: " + shorten(deepText()));
        new Actions(live())
                .moveToLocation(((Number) centre.get(0)).intValue(), ((Number) centre.get(1)).intValue())
                .click()
                .perform();
    }

    /** The page's current address (client-side routers change it without a load). */
    public String currentUrl() {
        return live().getCurrentUrl();
    }

    /** Saves what the viewport shows as a PNG file, creating its folder; returns {@code file}. */
    public Path screenshot(Path file) {
        byte[] png = live().getScreenshotAs(OutputType.BYTES);
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

    /**
     * The driver, the browser and its helpers now, for tests that prove none outlives {@link #close()}: the watcher's
     * process tree, and whatever else names this browser's directory (the crash handlers, which leave the tree).
     */
    List<ProcessHandle> processes() {
        String marker = dir.toString();
        Set<ProcessHandle> all = new LinkedHashSet<>();
        ProcessHandle.current().children().filter(child -> names(child, marker)).forEach(watcher -> {
            all.add(watcher);
            watcher.descendants().forEach(all::add);
        });
        ProcessHandle.allProcesses().filter(process -> names(process, marker)).forEach(all::add);
        return List.copyOf(all);
    }

    /** The throw-away directory holding the profile and the driver's log; gone after {@link #close()}. */
    Path directory() {
        return dir;
    }

    /** Quits the browser and the driver, ends whatever of them is left, and deletes the profile. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            driver.quit();
        } catch (WebDriverException alreadyGone) {
            // Whatever is left is ended below.
        } finally {
            service.stop();
            endProcesses();
            TempDirectories.delete(dir);
        }
    }

    private ChromeDriver live() {
        if (closed) {
            throw new IllegalStateException("This HeadlessBrowser has been closed");
        }
        return driver;
    }

    /**
     * A script may fail while the page replaces its document (a navigation the page starts itself): that counts as
     * "not yet", up to the timeout.
     */
    private <T> T poll(String what, Duration timeout, Function<WebDriver, T> check, Supplier<String> diagnostics) {
        try {
            return new FluentWait<WebDriver>(live())
                    .withTimeout(timeout)
                    .pollingEvery(POLL)
                    .ignoring(JavascriptException.class)
                    .until(check);
        } catch (TimeoutException e) {
            String seen;
            try {
                seen = diagnostics.get();
            } catch (RuntimeException unreadable) {
                seen = "(cannot read the page: " + unreadable.getMessage() + ")";
            }
            Throwable last = e.getCause();
            throw new IllegalStateException(
                    "Timed out after " + timeout.toSeconds() + " s waiting for " + what + ". " + seen
                            + (last == null ? "" : "\nLast failure: " + last.getMessage()),
                    e);
        }
    }

    private static boolean names(ProcessHandle process, String marker) {
        return process.info()
                .arguments()
                .map(args -> String.join(" ", args).contains(marker))
                .orElse(false);
    }

    /** Kills whatever is left of the driver and the browser, and waits until all of it is gone. */
    private void endProcesses() {
        List<ProcessHandle> all = processes();
        all.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.nanoTime() + EXIT_TIMEOUT.toNanos();
        while (all.stream().anyMatch(HeadlessBrowser::isRunning) && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(POLL.toMillis() / 4);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Alive and not a zombie. Helpers whose parent died are reaped by the system's init process, which may take its
     * time (in some containers, seconds): meanwhile {@link ProcessHandle#isAlive()} still says true.
     */
    static boolean isRunning(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
            // The state follows the command name, which is in parentheses and may itself hold spaces.
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException | RuntimeException noProcFileSystem) {
            return process.isAlive();
        }
    }

    private Path driverLog() {
        return dir.resolve("chromedriver.log");
    }

    private String driverLogTail() {
        try {
            List<String> lines = Files.readAllLines(driverLog(), StandardCharsets.UTF_8);
            return "--- last lines of " + driverLog() + " ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no driver log at " + driverLog() + ")";
        }
    }

    private static String shorten(String text) {
        return text.length() <= TEXT_IN_MESSAGES ? text : text.substring(0, TEXT_IN_MESSAGES) + "…";
    }
}
