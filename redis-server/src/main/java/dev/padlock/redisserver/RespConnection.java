package dev.padlock.redisserver;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough RESP2 to drive a server (PING, INFO, SHUTDOWN, the harness's setup commands), so that neither
 * Dev Services nor the test harness pull a Redis client library into the modules whose client behaviour they serve
 * to test. Replies come back as String (simple and bulk strings), Long, List of Object, or null; an error reply is
 * thrown as {@link RedisReplyException}.
 */
public final class RespConnection implements Closeable {
    /** How long connecting may take, in milliseconds. */
    public static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    // Generous because SHUTDOWN on a master may legitimately wait for lagging replicas.
    /** How long a reply may take by default, in milliseconds; see {@link #readTimeout}. */
    public static final int READ_TIMEOUT_MILLIS = 15_000;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /** A new connection, not authenticated. */
    public static RespConnection open(String host, int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            return new RespConnection(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** One round trip; convenience for the many places that need a single command. */
    public static Object call(String host, int port, String... args) throws IOException {
        return callWithPassword(host, port, null, args);
    }

    /** One round trip as the default user with {@code password} ({@code requirepass}), or none when null. */
    public static Object callWithPassword(String host, int port, String password, String... args) throws IOException {
        try (RespConnection connection = open(host, port)) {
            if (password != null) {
                connection.send("AUTH", password);
            }
            return connection.send(args);
        }
    }

    /** Whether anything accepts a TCP connection on {@code host:port} now. */
    public static boolean accepts(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends one command and returns its reply. */
    public Object send(String... args) throws IOException {
        write(args);
        return receive();
    }

    /** Sends a command without waiting for its reply, for tests that read the reply later with {@link #receive()}. */
    public void write(String... args) throws IOException {
        StringBuilder request = new StringBuilder();
        request.append('*').append(args.length).append("\r\n");
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            request.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
        }
        out.write(request.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** The next reply; a {@link java.net.SocketTimeoutException} when none comes within the read timeout. */
    public Object receive() throws IOException {
        return read();
    }

    /** How long a read waits for a reply before it fails; the connection stays usable after such a timeout. */
    public void readTimeout(Duration timeout) throws IOException {
        socket.setSoTimeout(Math.toIntExact(timeout.toMillis()));
    }

    private Object read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed by " + socket.getRemoteSocketAddress());
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new RedisReplyException(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(length);
                if (data.length < length) {
                    throw new EOFException("truncated bulk reply from " + socket.getRemoteSocketAddress());
                }
                readLine();
                return new String(data, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return items;
            }
            default:
                throw new IOException(
                        "not a RESP2 reply (type byte '" + (char) type + "') from " + socket.getRemoteSocketAddress());
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed by " + socket.getRemoteSocketAddress());
            }
            if (b == '\r') {
                int next = in.read();
                if (next == '\n') {
                    return line.toString(StandardCharsets.UTF_8);
                }
                line.write(b);
                if (next < 0) {
                    throw new EOFException("connection closed by " + socket.getRemoteSocketAddress());
                }
                line.write(next);
            } else {
                line.write(b);
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
