package dev.padlock.redisserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Free loopback ports for the servers and proxies a JVM starts. Asking the kernel (port 0) avoids the shared Redis on 6379 and anything else
 * already listening; a port is never handed out twice in one JVM so concurrently starting servers do
 * not race each other for it. Another process can still take it between our check and redis-server's
 * bind, which is why the launcher retries on "Address already in use".
 */
public final class Ports {
    /** Redis places the cluster bus at port + 10000. */
    public static final int CLUSTER_BUS_OFFSET = 10_000;

    private static final int MAX_ATTEMPTS = 200;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private Ports() {}

    /**
     * A loopback port that is free now and has not been handed out before in this JVM.
     *
     * @param withClusterBus whether port + {@link #CLUSTER_BUS_OFFSET} must be free too
     */
    public static int free(boolean withClusterBus) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            int port = kernelChosenPort();
            if (withClusterBus && (port + CLUSTER_BUS_OFFSET > 65_535 || !isFree(port + CLUSTER_BUS_OFFSET))) {
                continue;
            }
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("Found no free loopback port"
                + (withClusterBus ? " pair (port, port + 10000)" : "") + " after " + MAX_ATTEMPTS + " attempts");
    }

    /** Keeps a port bound elsewhere (a proxy that may let go of it for a while) from being handed out. */
    public static void claim(int port) {
        HANDED_OUT.add(port);
    }

    private static int kernelChosenPort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot bind any loopback port", e);
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
