/**
 * The lock engine, in rooms (docs/internals/architecture.md): what is decided once at deployment ({@code config}, {@code
 * shape}, {@code key}, {@code plan}, {@code setup}), what ties it to Redisson ({@code redis}, {@code client}), and what
 * runs per call ({@code turns}, {@code call}, {@code lease}, {@code operation}, {@code programmatic}, with {@code
 * engine} as the front door and {@code events}, {@code metrics}, {@code tracing} observing). This package keeps only
 * what every room shares: how Padlock makes its threads, where a call comes from, and the caller's transaction.
 *
 * <p>Internal: the classes are public only so that the rooms, Padlock's CDI and Quarkus integrations and its test kit
 * can use them; they carry no compatibility promise.
 */
package dev.padlock.core;
