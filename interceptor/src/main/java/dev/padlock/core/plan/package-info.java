/**
 * Deployment-time rules: from what an annotation or the configuration says to a validated plan per `@Locked` method and named lock.
 *
 * <p>Internal: public only so that the other engine packages and Padlock's CDI and Quarkus integrations can use
 * it; no compatibility promise.
 */
package dev.padlock.core.plan;
