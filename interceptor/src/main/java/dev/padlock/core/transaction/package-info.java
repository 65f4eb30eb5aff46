/**
 * Release after the caller's transaction ({@code padlock.release=after-transaction}): {@link
 * dev.padlock.core.transaction.ReleaseAfterTransaction}, the release timing that keeps a call's locks until the
 * transaction it ended inside completes, over the caller's transactions as {@link
 * dev.padlock.core.transaction.CallerTransactions} sees them (Jakarta Transactions, read through the container's
 * {@code TransactionSynchronizationRegistry} where the API is on the class path).
 *
 * <p>Internal: public only so that Padlock's CDI and Quarkus integrations can use it; no compatibility promise.
 */
package dev.padlock.core.transaction;
