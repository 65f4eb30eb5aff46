/**
 * The caller's transaction as the engine sees it ({@code dev.padlock.core.CallerTransactions}): Jakarta Transactions,
 * read through the container's {@code TransactionSynchronizationRegistry} where the API is on the class path.
 *
 * <p>Internal: public only so that Padlock's CDI and Quarkus integrations can use it; no compatibility promise.
 */
package dev.padlock.core.transaction;
