package dev.padlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** When {@link OtherOwner} cannot connect, it says where it tried, and never with the password of the address. */
@ExtendWith(RedisExtension.class)
class OtherOwnerConnectionTest {

    private static final String PASSWORD = "s3cret-pa55";

    @Test
    void aRefusedConnectionNamesTheAddressWithoutItsPassword() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        OtherOwner owner = OtherOwner.at("redis://app:" + PASSWORD + "@127.0.0.1:" + port);

        IllegalStateException failure = catchThrowableOfType(IllegalStateException.class, () -> owner.hold("stock"));

        assertThat(failure)
                .hasMessageContaining("OtherOwner cannot hold padlock:stock: no connection to redis://***@127.0.0.1:"
                        + port + ": Connection refused");
        assertThat(everything(failure)).doesNotContain(PASSWORD);
        assertThat(owner.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void aRejectedPasswordIsNotRepeated(RedisServer redis) {
        OtherOwner owner = OtherOwner.at("redis://app:" + PASSWORD + "@" + redis.host() + ":" + redis.port());

        IllegalStateException failure = catchThrowableOfType(IllegalStateException.class, () -> owner.hold("stock"));

        assertThat(failure)
                .hasMessageContaining("no connection to redis://***@" + redis.host())
                .hasMessageContaining("WRONGPASS");
        assertThat(everything(failure)).doesNotContain(PASSWORD);
    }

    /** The messages and stack traces of the whole cause chain, as a test report would print them. */
    private static String everything(Throwable failure) {
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
