/**
 * Test support for the examples' Dev UI checks, not published: {@link dev.padlock.examples.browser.HeadlessBrowser}
 * drives the system's headless Chromium through its chromedriver with Selenium and finds text in shadow roots. It never
 * installs or downloads a browser or a driver; without them it fails, saying how to get them.
 */
package dev.padlock.examples.browser;
