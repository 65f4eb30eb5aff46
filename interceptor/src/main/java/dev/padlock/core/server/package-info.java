/**
 * What Padlock learns of the Redis servers it locks on, beside the locks themselves: which master restarted
 * ({@code ServerWatch}), so that the locks it held are reported lost when it is back.
 *
 * <p>Internal: public only so that the other engine packages can use it; no compatibility promise.
 */
package dev.padlock.core.server;
