package dev.padlock.examples.browser;

import dev.padlock.redisserver.Executables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The browser and the driver a {@link HeadlessBrowser} runs: from {@code -Dpadlock.test.chromium} and
 * {@code -Dpadlock.test.chromedriver}, else from the {@code PATH} (and the usual macOS application folders for the
 * browser). Nothing is ever downloaded or installed: a machine without them fails, with a message saying how to get
 * them.
 */
record BrowserExecutables(Path browser, Path driver) {
    static final String BROWSER_PROPERTY = "padlock.test.chromium";
    static final String DRIVER_PROPERTY = "padlock.test.chromedriver";

    static final List<String> BROWSER_NAMES =
            List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable");
    static final String DRIVER_NAME = "chromedriver";
    /** Where {@code brew install --cask chromium} (or Chrome's installer) puts the browser, off the PATH. */
    static final List<Path> APPLICATIONS = List.of(
            Path.of("/Applications/Chromium.app/Contents/MacOS/Chromium"),
            Path.of("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"));

    static BrowserExecutables find() {
        return find(System::getProperty, Executables::onPath, APPLICATIONS);
    }

    /**
     * @param properties system properties by name (null when unset)
     * @param path finds an executable by name on the PATH
     * @param applications browsers to try after the PATH
     * @throws IllegalStateException naming every one that is missing and how to get it
     */
    static BrowserExecutables find(
            Function<String, String> properties, Function<String, Optional<Path>> path, List<Path> applications) {
        List<String> problems = new ArrayList<>();
        Path browser = configured(properties, BROWSER_PROPERTY, problems)
                .or(() -> BROWSER_NAMES.stream()
                        .map(path)
                        .flatMap(Optional::stream)
                        .findFirst())
                .or(() -> applications.stream().filter(Files::isExecutable).findFirst())
                .orElse(null);
        if (browser == null) {
            problems.add("no Chromium (looked for " + String.join(", ", BROWSER_NAMES) + " on the PATH, and for "
                    + APPLICATIONS.get(0) + ")");
        }
        Path driver = configured(properties, DRIVER_PROPERTY, problems)
                .or(() -> path.apply(DRIVER_NAME))
                .orElse(null);
        if (driver == null) {
            problems.add("no " + DRIVER_NAME + " (looked on the PATH)");
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Cannot start a headless browser: " + String.join(" and ", problems)
                    + ". Browser tests drive a real Chromium through its chromedriver, and never download either."
                    + " Install both: on Debian or Ubuntu `sudo apt install chromium chromium-driver`; on macOS"
                    + " `brew install --cask chromium` and `brew install chromedriver`. Or point -D"
                    + BROWSER_PROPERTY + "=<path to chromium> and -D" + DRIVER_PROPERTY
                    + "=<path to chromedriver> at them. The driver must be the browser's own version.");
        }
        return new BrowserExecutables(browser, driver);
    }

    /** The path a property names, even a wrong one: that is reported, not replaced by a lookup. */
    private static Optional<Path> configured(
            Function<String, String> properties, String property, List<String> problems) {
        String value = properties.apply(property);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        Path configured = Path.of(value.trim());
        if (!Files.isRegularFile(configured) || !Files.isExecutable(configured)) {
            problems.add("-D" + property + "=" + value + " is not an executable file");
        }
        return Optional.of(configured);
    }
}
