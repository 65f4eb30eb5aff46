/**
 * The local queue per key ({@code LocalTurns}): calls of one application wait here, in arrival order, so that one at a
 * time asks Redis; a turn may carry a Redis hold handed on with it. Knows nothing of calls or leases.
 *
 * <p>Internal: public only so that the other engine packages can use it; no compatibility promise.
 */
package dev.padlock.core.turns;
