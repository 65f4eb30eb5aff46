package dev.padlock.examples.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding the browser and its driver, and what a machine without them is told. */
class BrowserExecutablesTest {

    @Test
    void aMachineWithoutBrowserAndDriverIsToldHowToGetThem() {
        assertThatThrownBy(() -> BrowserExecutables.find(name -> null, name -> Optional.empty(), List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no Chromium (looked for chromium, chromium-browser, google-chrome")
                .hasMessageContaining("and no chromedriver (looked on the PATH)")
                .hasMessageContaining("never download")
                .hasMessageContaining("`sudo apt install chromium chromium-driver`")
                .hasMessageContaining("`brew install --cask chromium` and `brew install chromedriver`")
                .hasMessageContaining("-Dpadlock.test.chromium=<path to chromium>")
                .hasMessageContaining("-Dpadlock.test.chromedriver=<path to chromedriver>");
    }

    @Test
    void aMissingDriverAloneIsNamedAlone(@TempDir Path temp) throws IOException {
        Path chromium = executable(temp, "chromium");

        assertThatThrownBy(() -> BrowserExecutables.find(
                        name -> null,
                        name -> name.equals("chromium") ? Optional.of(chromium) : Optional.empty(),
                        List.of()))
                .hasMessageStartingWith("Cannot start a headless browser: no chromedriver (looked on the PATH).")
                .hasMessageContaining("chromium-driver");
    }

    @Test
    void propertiesWinOverThePathAndAWrongOneIsReported(@TempDir Path temp) throws IOException {
        Path browser = executable(temp, "my-chromium");
        Path driver = executable(temp, "my-chromedriver");
        Map<String, String> properties = Map.of(
                BrowserExecutables.BROWSER_PROPERTY, browser.toString(),
                BrowserExecutables.DRIVER_PROPERTY, driver.toString());
        Path onPath = executable(temp, "chromium");

        assertThat(BrowserExecutables.find(properties::get, name -> Optional.of(onPath), List.of()))
                .isEqualTo(new BrowserExecutables(browser, driver));
        assertThatThrownBy(() -> BrowserExecutables.find(
                        Map.of(
                                BrowserExecutables.DRIVER_PROPERTY,
                                temp.resolve("none").toString())::get,
                        name -> Optional.of(onPath),
                        List.of()))
                .hasMessageContaining("-Dpadlock.test.chromedriver=" + temp.resolve("none") + " is not an executable");
    }

    @Test
    void aBrowserOffThePathIsFoundInTheApplicationsFolder(@TempDir Path temp) throws IOException {
        Path app = executable(temp, "Chromium");
        Path driver = executable(temp, "chromedriver");

        assertThat(BrowserExecutables.find(
                        name -> null,
                        name -> name.equals("chromedriver") ? Optional.of(driver) : Optional.empty(),
                        List.of(temp.resolve("missing"), app)))
                .isEqualTo(new BrowserExecutables(app, driver));
    }

    private static Path executable(Path dir, String name) throws IOException {
        Path file = Files.writeString(dir.resolve(name), "#!/bin/sh\n");
        file.toFile().setExecutable(true);
        return file;
    }
}
