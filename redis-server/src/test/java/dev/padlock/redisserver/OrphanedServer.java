package dev.padlock.redisserver;

/**
 * Runs in a child JVM that a test SIGKILLs: no shutdown hook runs then, so only the watcher shell
 * can stop the redis-server started here.
 */
final class OrphanedServer {
    static final String STARTED = "started";

    private OrphanedServer() {}

    public static void main(String[] args) throws InterruptedException {
        ServerProcess redis = ServerProcess.startStandalone(TestBinary.find());
        System.out.println(STARTED + " " + redis.pid() + " " + redis.port() + " " + redis.directory());
        System.out.flush();
        // Bounded in case the test that should kill this JVM dies first; the shutdown hook then cleans up.
        Thread.sleep(60_000);
        redis.close();
    }
}
