package dev.padlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * E7 (engine review 2): no part of the password in an address given to {@link OtherOwner#at(String)} appears in its
 * {@code toString()} or in the messages of a hold that cannot connect, also when the password holds {@code @} or
 * {@code /}, the characters that end user info. The address names a port nothing listens on, so that the message a
 * developer reads (and CI keeps) is the one shown.
 */
class OtherOwnerAddressTest {

    private static int closedPort;

    @BeforeAll
    static void findAClosedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort(); // closed again: nothing listens there
        }
    }

    @Test
    void aPasswordWithAnAtSignNeverAppears() {
        String shown = shownFor("Pa@ss-Secret-Tail");

        assertThat(shown)
                .doesNotContain("Pa@ss")
                .doesNotContain("Secret-Tail")
                .contains("redis://***@127.0.0.1:" + closedPort);
    }

    @Test
    void aPasswordWithASlashNeverAppears() {
        String shown = shownFor("Ab3/Secret+Tail==");

        assertThat(shown)
                .doesNotContain("Ab3")
                .doesNotContain("Secret+Tail")
                .contains("redis://***@127.0.0.1:" + closedPort);
    }

    @Test
    void controlAPlainPasswordIsStruckOut() {
        String shown = shownFor("s3cret-pa55");

        assertThat(shown).doesNotContain("s3cret").contains("redis://***@127.0.0.1:" + closedPort);
    }

    /**
     * Everything a developer may read about an owner at {@code redis://app:<password>@127.0.0.1:<closed port>}: its
     * {@code toString()}, then the failure of a hold, messages and stack traces of the whole cause chain.
     */
    private static String shownFor(String password) {
        OtherOwner owner = OtherOwner.at("redis://app:" + password + "@127.0.0.1:" + closedPort);
        IllegalStateException failure = catchThrowableOfType(IllegalStateException.class, () -> owner.hold("stock"));
        assertThat(failure).as("the hold fails").isNotNull();
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        return owner + " | " + failure.getMessage() + " | " + text;
    }
}
