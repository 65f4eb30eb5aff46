package dev.padlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The BOM has no parent (so that importing it brings no test libraries along), hence its own version and metadata:
 * they must move with the project's, and it must list every artifact an application may depend on.
 */
class BomTest {

    private static final Pattern VERSION =
            Pattern.compile("<artifactId>([^<]+)</artifactId>\\s*<version>([^<]+)</version>");

    @Test
    void theBomHasTheProjectsVersionAndListsEveryPublishedArtifact() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Matcher parent = VERSION.matcher(Files.readString(root.resolve("pom.xml")));
        assertThat(parent.find()).isTrue();
        String bom = Files.readString(root.resolve("bom/pom.xml"));
        Matcher own = VERSION.matcher(bom);
        assertThat(own.find()).isTrue();

        assertThat(own.group(1)).isEqualTo("padlock-bom");
        assertThat(own.group(2)).as("padlock-bom's version").isEqualTo(parent.group(2));
        List<String> managed = new ArrayList<>();
        Matcher entry =
                Pattern.compile("<artifactId>(padlock-[^<]+)</artifactId>").matcher(bom);
        while (entry.find()) {
            managed.add(entry.group(1));
        }
        assertThat(managed)
                .contains(
                        "padlock-interceptor",
                        "padlock-extension",
                        "padlock-fencing",
                        "padlock-quarkus",
                        "padlock-quarkus-deployment",
                        "padlock-redis-server",
                        "padlock-testing",
                        "padlock-testkit");
    }

    @Test
    void theBomCarriesTheProjectsUrlLicenceDevelopersAndScm() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        String parent = Files.readString(root.resolve("pom.xml"));
        String bom = Files.readString(root.resolve("bom/pom.xml"));
        for (String element : List.of("url", "inceptionYear", "licenses", "developers", "scm")) {
            assertThat(firstElement(bom, element))
                    .as("padlock-bom's <%s>, against the parent's", element)
                    .isNotEmpty()
                    .isEqualTo(firstElement(parent, element));
        }
    }

    @Test
    void theBomBuildsWithThePluginVersionsOfTheParent() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        String parent = Files.readString(root.resolve("pom.xml"));
        Matcher plugin = Pattern.compile("<artifactId>([^<]+-plugin)</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(root.resolve("bom/pom.xml")));
        List<String> plugins = new ArrayList<>();
        while (plugin.find()) {
            // maven-gpg-plugin is gpg-plugin.version in the parent, central-publishing-maven-plugin
            // central-publishing-plugin.version
            String property =
                    plugin.group(1).replaceFirst("^maven-", "").replaceFirst("-maven-plugin$", "-plugin") + ".version";
            assertThat(parent)
                    .as("padlock-bom's %s, against the parent's %s", plugin.group(1), property)
                    .contains("<" + property + ">" + plugin.group(2) + "</" + property + ">");
            plugins.add(plugin.group(1));
        }
        assertThat(plugins).contains("maven-gpg-plugin", "central-publishing-maven-plugin");
    }

    /** The content of the first {@code <element>} in {@code pom}, whitespace collapsed; empty when there is none. */
    private static String firstElement(String pom, String element) {
        Matcher found = Pattern.compile("<" + element + "(\\s[^>]*)?>(.*?)</" + element + ">", Pattern.DOTALL)
                .matcher(pom);
        return found.find() ? found.group(2).replaceAll("\\s+", " ").trim() : "";
    }
}
