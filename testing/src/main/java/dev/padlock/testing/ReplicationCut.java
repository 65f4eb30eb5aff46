package dev.padlock.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A replica that misses the master's writes while its link still looks up, so that the sentinels still promote it
 * when the master dies: the master-to-replica stream is dropped on loopback with {@code iptables} (the replica keeps
 * its connection; the master's writes pile up unsent). Stopping the replica does not do this (it applies what the
 * kernel buffered when it goes on), nor does a proxy (the sentinels repoint the replica at the real master).
 *
 * <p>Needs {@code iptables} and root; without either, {@link #start} fails and says so. The rule is removed by {@link
 * #close} (use try-with-resources), and by a shutdown hook if the JVM ends first. Tests that use it carry the JUnit tag
 * {@link #TAG}: Padlock's build leaves them out unless asked for them ({@code -Pfirewall-tests}, which CI sets).
 */
public final class ReplicationCut implements AutoCloseable {

    /** The JUnit tag of the tests that cut replication this way, and so need {@code iptables} and root. */
    public static final String TAG = "firewall";

    private static final String HOW = " Such tests carry the JUnit tag \"" + TAG
            + "\" and run only with -Pfirewall-tests (as CI runs them)," + " as root.";

    private final List<String> rule;
    private final Thread hook;
    private boolean closed;

    private ReplicationCut(List<String> rule) {
        this.rule = List.copyOf(rule);
        this.hook = new Thread(() -> iptables("-D", rule, false), "padlock-replication-cut-cleanup");
    }

    /** Cuts what {@code master} sends {@code replica} from now on, until {@link #close}. */
    public static ReplicationCut start(RedisServer master, RedisServer replica) {
        int replicaSidePort = replicaSidePort(master, replica);
        List<String> rule = List.of(
                "INPUT",
                "-i",
                "lo",
                "-p",
                "tcp",
                "--sport",
                String.valueOf(master.port()),
                "--dport",
                String.valueOf(replicaSidePort),
                "-j",
                "DROP");
        ReplicationCut cut = new ReplicationCut(rule);
        iptables("-I", rule, true);
        Runtime.getRuntime().addShutdownHook(cut.hook);
        return cut;
    }

    /** The replica's end of its connection to the master, as the master lists it ({@code addr=}). */
    private static int replicaSidePort(RedisServer master, RedisServer replica) {
        String clients = String.valueOf(master.command("CLIENT", "LIST", "TYPE", "replica"));
        List<Integer> ports = new ArrayList<>();
        for (String line : clients.split("\n")) {
            for (String field : line.trim().split(" ")) {
                if (field.startsWith("addr=")) {
                    String address = field.substring("addr=".length());
                    ports.add(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
                }
            }
        }
        if (ports.size() != 1) {
            throw new IllegalStateException("Expected one replica connection on the master at " + master.uri()
                    + " (the replica at " + replica.uri() + "), found: " + clients);
        }
        return ports.get(0);
    }

    private static void iptables(String action, List<String> rule, boolean mustWork) {
        List<String> command = new ArrayList<>(List.of("iptables", action));
        command.addAll(rule);
        String output;
        int exit;
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end within 20 s");
            }
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            exit = process.exitValue();
        } catch (IOException e) {
            if (!mustWork) {
                return;
            }
            throw new IllegalStateException(
                    "Cannot run iptables, which this test needs to make a replica miss the master's writes: install"
                            + " it (Debian: apt install iptables) and run the test as root." + HOW,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + String.join(" ", command), e);
        }
        if (exit != 0 && mustWork) {
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + exit + "): " + output.trim()
                    + ". This test needs root to add a firewall rule on loopback." + HOW);
        }
    }

    /** Removes the rule: the replica catches up from the master's backlog. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        iptables("-D", rule, true);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs anyway, and finds the rule gone
        }
    }
}
