package dev.padlock.core.server;

import java.util.Comparator;
import java.util.Objects;

/**
 * One thing the server check found on a Redis node that can void a lock, or that it could not check. Plain, so the log,
 * the readiness checks and the Dev UI render it their own way. Never holds a password: a node is named by its host and
 * port as the client reached it, and a refusal is quoted as the server worded it.
 *
 * @param severity what Padlock does about it
 * @param node {@code host:port} of the node, or {@code "every master"} for what was asked of the topology as a whole
 * @param setting the server setting or command it is about: {@code maxmemory-policy}, {@code min-replicas-to-write},
 *     {@code appendonly}, {@code INFO}, {@code CONFIG GET save}, {@code WAIT}
 * @param value what the server has, as it says it ({@code volatile-lru}, {@code 0}); for a refusal, the server's reply
 * @param message the whole finding for a reader: what is set, what it does to a lock, and the fix
 */
public record ServerFinding(Severity severity, String node, String setting, String value, String message) {

    /** What Padlock does about a finding. */
    public enum Severity {
        /**
         * The server can void a lock (evict it, or grant it twice after a failover): a WARN line, and what
         * {@code padlock.redis.unsafe-server} says.
         */
        UNSAFE,
        /**
         * Something could not be checked, or the server refuses a command locks need: a WARN line with how to allow it;
         * never acted on.
         */
        WARNING,
        /** Worth knowing and often intended (no persistence): an INFO line; never acted on. */
        NOTICE
    }

    /** Most severe first, then by node and setting, so logs, readiness and the Dev UI list them the same way. */
    static final Comparator<ServerFinding> ORDER = Comparator.comparing(ServerFinding::severity)
            .thenComparing(ServerFinding::node)
            .thenComparing(ServerFinding::setting);

    public ServerFinding {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(setting, "setting");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(message, "message");
    }

    /** Whether {@code padlock.redis.unsafe-server} applies to it. */
    public boolean unsafe() {
        return severity == Severity.UNSAFE;
    }

    @Override
    public String toString() {
        return message;
    }
}
