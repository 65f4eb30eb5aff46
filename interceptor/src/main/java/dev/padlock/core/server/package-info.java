/**
 * What the Redis servers say beside the locks they keep: {@link dev.padlock.core.server.ServerCheck} asks every master
 * for the settings that can void a lock (eviction, replicas that need not confirm writes, persistence, refused
 * commands), and {@link dev.padlock.core.server.ServerFindings} keeps the latest findings for the log, readiness and
 * the Dev UI; {@link dev.padlock.core.server.ServerWatch} sees a master that restarted and a server clock that jumped,
 * so that the locks held there are reported lost at once.
 *
 * <p>Internal: public only so that the engine and Padlock's CDI and Quarkus integrations can use it; no compatibility
 * promise.
 */
package dev.padlock.core.server;
