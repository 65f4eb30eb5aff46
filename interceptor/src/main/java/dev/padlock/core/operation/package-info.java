/**
 * What one {@code @Locked} method runs per call: an operation by when its work ends (blocking, stage, reactive, built by
 * {@code Operations}), the call factory, the acquisition ({@code Acquirer}) and the release ({@code Releaser}), and the
 * services one engine shares among its operations ({@code EngineServices}).
 *
 * <p>Internal: public only so that the other engine packages can use it; no compatibility promise.
 */
package dev.padlock.core.operation;
