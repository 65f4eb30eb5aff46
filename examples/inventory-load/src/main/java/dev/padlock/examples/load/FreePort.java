package dev.padlock.examples.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** A loopback port nothing listens on right now, chosen by the kernel. */
public final class FreePort {

    private FreePort() {}

    public static int find() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot bind any loopback port", e);
        }
    }
}
