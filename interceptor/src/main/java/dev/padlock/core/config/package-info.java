/**
 * Reading and checking Padlock's configuration (`padlock.*`): the keys ({@link dev.padlock.core.config.ConfigKeys}),
 * global defaults, one parser per value type, and {@link dev.padlock.core.config.Problems}, which words every problem.
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations can use
 * it; no compatibility promise.
 */
package dev.padlock.core.config;
