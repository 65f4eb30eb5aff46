package dev.padlock.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds a Chromium to drive, and on a Debian machine where the tests run as root installs Debian's own package
 * ({@code chromium}) when there is none, as {@code .ci/run} does for redis-server. Never downloads a browser build
 * of its own: a machine that cannot install the package fails with a message saying how to get one.
 */
final class ChromiumBinary {
    /** A path to the browser executable, when it is not on the PATH under one of the usual names. */
    static final String PROPERTY = "padlock.test.chromium";

    private static final List<String> NAMES =
            List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable");
    private static final long INSTALL_MINUTES = 15;

    private ChromiumBinary() {}

    /** The executable to run; installs Debian's chromium first when none is found and that is possible. */
    static synchronized Path find() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            if (!Files.isExecutable(path)) {
                throw new IllegalStateException("-D" + PROPERTY + "=" + configured + " is not an executable file");
            }
            return path;
        }
        Optional<Path> found = onPath();
        if (found.isPresent()) {
            return found.get();
        }
        Optional<Path> aptGet = onPath("apt-get");
        if (aptGet.isEmpty() || !isRoot()) {
            throw new IllegalStateException(missing(
                    "cannot install it here (" + (aptGet.isEmpty() ? "no apt-get" : "not running as root") + ")"));
        }
        install(aptGet.get());
        return onPath().orElseThrow(() -> new IllegalStateException(
                missing("apt-get installed the package chromium, but still no " + NAMES + " on the PATH")));
    }

    private static Optional<Path> onPath() {
        for (String name : NAMES) {
            Optional<Path> path = onPath(name);
            if (path.isPresent()) {
                return path;
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static boolean isRoot() {
        try {
            Process id =
                    new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
            String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return id.waitFor() == 0 && uid.equals("0");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Installs with the package lists as they are, and refreshes them only when that fails (a fresh container has
     * none). The dpkg lock timeout lets two test JVMs that both found no browser take turns instead of failing.
     */
    private static void install(Path aptGet) {
        System.err.println("[padlock-testing] no Chromium on the PATH: installing Debian's chromium with apt-get");
        String installed = run(aptGet, "install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=600", "chromium");
        if (installed == null) {
            return;
        }
        String updated = run(aptGet, "update", "-qq", "-o", "DPkg::Lock::Timeout=600");
        String retried = run(aptGet, "install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=600", "chromium");
        if (retried != null) {
            throw new IllegalStateException(missing("`apt-get install chromium` failed"
                    + (updated == null ? "" : " (and `apt-get update` failed: " + updated + ")") + ":\n" + retried));
        }
    }

    /** Runs apt-get; null on success, else its exit status and the tail of its output. */
    private static String run(Path aptGet, String... args) {
        Path log = null;
        try {
            log = Files.createTempFile("padlock-apt-", ".log");
            ProcessBuilder builder = new ProcessBuilder(aptGet.toString());
            builder.command().addAll(List.of(args));
            builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
            Process apt = builder.redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!apt.waitFor(INSTALL_MINUTES, TimeUnit.MINUTES)) {
                apt.descendants().forEach(ProcessHandle::destroyForcibly);
                apt.destroyForcibly();
                return "did not finish within " + INSTALL_MINUTES + " minutes";
            }
            if (apt.exitValue() == 0) {
                return null;
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "exit status " + apt.exitValue() + "\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            if (log != null) {
                log.toFile().delete();
            }
        }
    }

    private static String missing(String why) {
        return "No Chromium found on the PATH (looked for " + String.join(", ", NAMES) + ") and " + why
                + ". Browser tests need a real headless browser: install Debian's package"
                + " (`sudo apt-get install chromium`), or point -D" + PROPERTY + "=<path to chromium> at one.";
    }
}
