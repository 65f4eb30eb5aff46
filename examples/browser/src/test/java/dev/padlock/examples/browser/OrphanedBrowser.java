package dev.padlock.examples.browser;

import java.net.URI;

/** Runs in a child JVM that a test SIGKILLs: only the watcher can then end the browser started here. */
final class OrphanedBrowser {
    static final String STARTED = "started";

    private OrphanedBrowser() {}

    public static void main(String[] args) throws InterruptedException {
        HeadlessBrowser browser = HeadlessBrowser.start();
        browser.open(URI.create(args[0]));
        System.out.println(STARTED + " " + browser.directory());
        System.out.flush();
        // Bounded in case the test that should kill this JVM dies first.
        Thread.sleep(60_000);
        browser.close();
    }
}
