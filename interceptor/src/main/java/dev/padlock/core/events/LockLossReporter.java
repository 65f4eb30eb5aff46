package dev.padlock.core.events;

import dev.padlock.LockLost;
import dev.padlock.core.PadlockThreads;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * Says so when a lock was lost while its method ran: one WARN line, the {@link LockLost} event to the
 * application's observers, and the {@link PadlockMetricsMBean} counter. One per engine.
 */
public final class LockLossReporter implements PadlockMetricsMBean {

    private static final System.Logger LOG = System.getLogger(LockLossReporter.class.getName());

    private final Consumer<LockLost> observers;
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong renewalFailures = new AtomicLong();

    /** How many of the latest losses a live view sees. */
    static final int RECENT = 20;
    /** The latest losses, newest last; guarded by itself. Losses are rare, so a lock costs nothing that matters. */
    private final ArrayDeque<LiveLocks.Loss> recent = new ArrayDeque<>(RECENT);

    private ObjectName registered;

    /** @param observers delivers the event to the application (a CDI {@code Event.fire}) */
    public LockLossReporter(Consumer<LockLost> observers) {
        this.observers = observers;
    }

    /**
     * Events found off the caller's thread (renewals, releases of completed stages) are delivered here, one at a
     * time and in order, so that a slow observer holds up neither a renewal nor Redisson's I/O threads. One thread per
     * engine, so that a slow observer of one application delays no other application's reports (nor the releases
     * that wait for them); it ends when idle.
     */
    private final ThreadPoolExecutor events = events();

    private static ThreadPoolExecutor events() {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(
                1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), PadlockThreads.daemon("padlock-events"));
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /** Reports on the calling thread: observers have seen the event when this returns. */
    public void reportNow(LockLost loss) {
        lost.incrementAndGet();
        remember(loss);
        LOG.log(System.Logger.Level.WARNING, loss::describe);
        try {
            observers.accept(loss);
        } catch (Throwable e) {
            // An observer's bug, Errors included, must not stop a release loop or the event thread.
            LOG.log(System.Logger.Level.WARNING, "An observer of LockLost for " + loss.lockKey() + " failed", e);
        }
    }

    /** Reports on the engine's event thread; completes when observers have seen the event. */
    public CompletableFuture<Void> reportLater(LockLost loss) {
        try {
            return CompletableFuture.runAsync(() -> reportNow(loss), events);
        } catch (RejectedExecutionException e) {
            // the engine has stopped: said here, rather than not at all
            reportNow(loss);
            return CompletableFuture.completedFuture(null);
        }
    }

    /** The application has stopped: reports queued already are still delivered, then the event thread ends. */
    public void close() {
        events.shutdown();
    }

    private void remember(LockLost loss) {
        synchronized (recent) {
            if (recent.size() == RECENT) {
                recent.removeFirst();
            }
            recent.addLast(LiveLocks.Loss.of(loss));
        }
    }

    /** The latest losses, newest first. */
    public List<LiveLocks.Loss> recent() {
        synchronized (recent) {
            List<LiveLocks.Loss> newestFirst = new ArrayList<>(recent);
            Collections.reverse(newestFirst);
            return newestFirst;
        }
    }

    public void renewalFailed() {
        renewalFailures.incrementAndGet();
    }

    @Override
    public long getLocksLost() {
        return lost.get();
    }

    @Override
    public long getRenewalFailures() {
        return renewalFailures.get();
    }

    /** Publishes the counters over JMX under {@code name}; a name already taken gets a number appended. */
    public synchronized void register(String name) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (int n = 1; n < 100 && registered == null; n++) {
            try {
                String value = n == 1 ? name : name + "-" + n;
                if (!value.matches("[\\w.\\-]+")) {
                    value = ObjectName.quote(value);
                }
                ObjectName candidate = new ObjectName("dev.padlock:type=Padlock,name=" + value);
                server.registerMBean(new StandardMBean(this, PadlockMetricsMBean.class), candidate);
                registered = candidate;
            } catch (InstanceAlreadyExistsException e) {
                // another application in this JVM uses the name: try the next
            } catch (JMException | RuntimeException | LinkageError e) {
                // e.g. a native image without JMX: the counters stay readable through the event
                LOG.log(System.Logger.Level.INFO, "Padlock's metrics are not published over JMX", e);
                return;
            }
        }
    }

    public synchronized void unregister() {
        if (registered != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(registered);
            } catch (JMException | RuntimeException e) {
                // already gone
            }
            registered = null;
        }
    }
}
