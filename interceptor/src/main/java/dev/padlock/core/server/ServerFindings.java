package dev.padlock.core.server;

import dev.padlock.core.PadlockThreads;
import dev.padlock.core.client.RedisReachability;
import dev.padlock.core.client.Secrets;
import dev.padlock.core.config.ConfigKeys;
import dev.padlock.core.config.EnumSetting;
import dev.padlock.core.config.UnsafeServerPolicy;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.redisson.Redisson;
import org.redisson.api.NodeType;
import org.redisson.api.RedissonClient;
import org.redisson.connection.ConnectionListener;

/**
 * What the server check last found on the Redis an application locks on, one per application: {@link #check} runs the
 * check (as a client connects, and by itself again after every reconnect of that client) and keeps its findings; the log, readiness and
 * the Dev UI read them here. What {@code padlock.redis.unsafe-server} asks for happens here too: a WARN line in every
 * case, readiness down for {@code not-ready} and {@code fail}, and the start-up refused for {@code fail}
 * ({@link #startUpRefusal}).
 *
 * <p>A finding is logged when a check first finds it: the same server checked again after a reconnect says nothing
 * more, and a changed one says what changed. Unsafe findings and what could not be checked are WARN lines, a server
 * without persistence an INFO line.
 */
public final class ServerFindings {

    private static final System.Logger LOG = System.getLogger(ServerFindings.class.getName());

    /**
     * How long a start-up under {@code fail} waits for Padlock's client to connect and for the first check: the check's
     * own bound ({@link ServerCheck#TIMEOUT} per command) and a connection's, with room to spare. A server that takes
     * longer is checked once reached, and can then only keep readiness down.
     */
    public static final Duration START_UP_WAIT = Duration.ofSeconds(15);

    private final UnsafeServerPolicy policy;
    private final AtomicLong checks = new AtomicLong();
    private final CompletableFuture<List<ServerFinding>> first = new CompletableFuture<>();
    private final Object guard = new Object();
    private long recorded; // guarded by guard: the number of the check whose findings are kept
    private volatile List<ServerFinding> latest = List.of();
    /** The clients checked again after each reconnect (one, or a new one after Padlock's own reconnected). */
    private final Set<Redisson> reconnectsOf = Collections.newSetFromMap(new IdentityHashMap<>()); // guarded by guard

    public ServerFindings(UnsafeServerPolicy policy) {
        this.policy = policy;
    }

    /**
     * The entry point: inspects every master of {@code client}, keeps and logs what it finds. Returns at once (the
     * commands go out on Redisson's event loops); the future completes with the findings, in their order (most severe
     * first), never exceptionally. Call it whenever the client (re)connects; checks that overlap keep the findings of
     * the one started last.
     */
    public CompletableFuture<List<ServerFinding>> check(RedissonClient client) {
        checkAfterReconnects(client);
        long number = checks.incrementAndGet();
        CompletableFuture<List<ServerFinding>> found;
        try {
            found = ServerCheck.inspect(client);
        } catch (RuntimeException e) { // a client shut down meanwhile: nothing to check, nothing to keep
            return CompletableFuture.completedFuture(latest);
        }
        return found.thenApply(findings -> {
            // A client shut down meanwhile (the application stopping) answers nothing worth saying.
            if (!client.isShuttingDown() && !client.isShutdown()) {
                record(number, findings);
            }
            return findings;
        });
    }

    /**
     * Checks {@code client} again each time Redisson reconnects to one of its servers (a restart, a failover, a
     * network cut): the server that answers may not be the one checked. Once per client; a client that is not
     * Redisson's own (a test double, a proxy) is checked only when asked.
     */
    private void checkAfterReconnects(RedissonClient client) {
        if (!(client instanceof Redisson redisson)) {
            return;
        }
        synchronized (guard) {
            if (reconnectsOf.contains(redisson)) {
                return;
            }
            reconnectsOf.add(redisson);
        }
        redisson.getCommandExecutor()
                .getConnectionManager()
                .getServiceManager()
                .getConnectionEventsHub()
                .addListener(new ConnectionListener() {
                    @Override
                    public void onConnect(InetSocketAddress address) {
                        onConnect(address, NodeType.MASTER);
                    }

                    @Override
                    public void onConnect(InetSocketAddress address, NodeType type) {
                        if (type == NodeType.MASTER && !redisson.isShuttingDown() && !redisson.isShutdown()) {
                            check(redisson);
                        }
                    }

                    @Override
                    public void onDisconnect(InetSocketAddress address) {}
                });
    }

    /**
     * For a client Padlock does not create (the application's): looks it up on a thread of Padlock's, since creating
     * the application's bean may connect and block, then {@link #check}s it. A look-up that fails is said in a WARN
     * line, and fails the future.
     *
     * @param loader the context class loader the look-up runs with (the application's)
     */
    public CompletableFuture<List<ServerFinding>> checkWhenResolved(
            Supplier<RedissonClient> client, ClassLoader loader) {
        CompletableFuture<RedissonClient> resolved = new CompletableFuture<>();
        Thread lookup = PadlockThreads.prepare(
                new Thread(() -> {
                    try {
                        resolved.complete(client.get());
                    } catch (RuntimeException | LinkageError e) {
                        resolved.completeExceptionally(e);
                    }
                }),
                "padlock-server-check");
        lookup.setContextClassLoader(loader);
        lookup.start();
        return resolved.whenComplete((c, failure) -> {
                    if (failure != null) {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                () -> "Padlock could not check the Redis server of the application's RedissonClient:"
                                        + " the client could not be had ("
                                        + failure.getClass().getName() + ": "
                                        + Secrets.NONE.strikeOut(String.valueOf(failure.getMessage())) + ").");
                    }
                })
                .thenCompose(this::check);
    }

    /** The findings of the latest check, most severe first; empty before the first check and for a safe server. */
    public List<ServerFinding> latest() {
        return latest;
    }

    /** Whether a check has completed since the application started. */
    public boolean checked() {
        return first.isDone();
    }

    public UnsafeServerPolicy policy() {
        return policy;
    }

    /**
     * At start-up, under {@code fail}: waits at most {@link #START_UP_WAIT} for {@code connection} and then the first
     * check, and returns why the start-up must stop when that check found the server unsafe. Empty under
     * {@code warn} and {@code not-ready}, when the server is safe, and when the client could not connect or the check
     * did not complete in time (said in a WARN line: the server is checked once reached, and readiness stays down
     * meanwhile). Blocks: call it from the thread that starts the application, never from an event loop.
     *
     * @param connection completes once the client is connected (fails when it cannot connect)
     */
    public Optional<String> startUpRefusal(CompletableFuture<?> connection) {
        if (policy != UnsafeServerPolicy.FAIL) {
            return Optional.empty();
        }
        List<ServerFinding> findings;
        try {
            findings = connection.thenCompose(c -> first).get(START_UP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            String why = e instanceof TimeoutException
                    ? "it did not complete within " + START_UP_WAIT.toSeconds() + " s"
                    : "Padlock's client could not connect";
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "Padlock could not check the Redis server before the start-up (" + setting() + "): " + why
                            + ". It is checked once reached; readiness stays down until it is found safe.");
            return Optional.empty();
        }
        List<ServerFinding> unsafe =
                findings.stream().filter(ServerFinding::unsafe).toList();
        if (unsafe.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Padlock found a Redis server that can void locks, and " + setting() + " stops the start-up:"
                + unsafe.stream().map(f -> "\n - " + f.message()).collect(Collectors.joining())
                + "\nFix the server, or set " + ConfigKeys.REDIS_UNSAFE_SERVER
                + " to not-ready or warn to start anyway.");
    }

    /**
     * A readiness answer: Padlock's, with the server's findings. Down when Redis cannot be reached ({@code reach}), and
     * under {@code not-ready} and {@code fail} also until the first check completed and while the latest finds the
     * server unsafe.
     *
     * @param up whether the application may take traffic, as far as Padlock knows
     * @param data what the check shows: {@code reach}'s address and reason, and {@code findings} (one line per
     *     finding, most severe first) when there are any
     */
    public record Readiness(boolean up, Map<String, Object> data) {}

    /** Padlock's readiness: {@code reach} (whether Redis answers) with the latest findings. */
    public Readiness readiness(RedisReachability.Result reach) {
        Map<String, Object> data = new LinkedHashMap<>(reach.data());
        List<ServerFinding> findings = latest;
        boolean up = reach.up();
        if (up && policy != UnsafeServerPolicy.WARN) {
            if (!checked()) {
                up = false;
                data.put("reason", "the server check has not completed yet (" + setting() + ")");
            } else if (findings.stream().anyMatch(ServerFinding::unsafe)) {
                up = false;
                data.put(
                        "reason",
                        "the Redis server can void locks (see findings), and " + setting()
                                + " keeps readiness down until that is fixed");
            }
        }
        if (!findings.isEmpty()) {
            data.put(
                    "findings",
                    findings.stream()
                            .map(f -> f.severity() + ": " + f.message())
                            .collect(Collectors.joining("\n")));
        }
        return new Readiness(up, Collections.unmodifiableMap(data));
    }

    private void record(long number, List<ServerFinding> findings) {
        List<ServerFinding> earlier;
        synchronized (guard) {
            if (number < recorded) {
                return; // a later check has answered already
            }
            recorded = number;
            earlier = latest;
            latest = findings;
        }
        Set<String> said = new HashSet<>();
        earlier.forEach(f -> said.add(f.message()));
        for (ServerFinding finding : findings) {
            if (!said.contains(finding.message())) {
                log(finding);
            }
        }
        first.complete(findings);
    }

    private void log(ServerFinding finding) {
        switch (finding.severity()) {
            case UNSAFE -> LOG.log(System.Logger.Level.WARNING, () -> finding.message() + " " + consequence());
            case WARNING -> LOG.log(System.Logger.Level.WARNING, finding::message);
            case NOTICE -> LOG.log(System.Logger.Level.INFO, finding::message);
        }
    }

    /** What Padlock does about an unsafe server, as the log line's last sentence. */
    private String consequence() {
        return switch (policy) {
            case WARN ->
                "Padlock goes on (" + setting() + "; not-ready would keep readiness down, fail would stop"
                        + " the start-up).";
            case NOT_READY -> "Readiness stays down until it is fixed (" + setting() + ").";
            case FAIL ->
                "At start-up this stops the application; once started, readiness stays down until it is" + " fixed ("
                        + setting() + ").";
        };
    }

    private String setting() {
        return ConfigKeys.REDIS_UNSAFE_SERVER + "=" + EnumSetting.spelled(policy);
    }
}
