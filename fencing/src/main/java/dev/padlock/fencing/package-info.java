/**
 * The store's half of a {@code FENCED} lock: writes that carry the holder's fencing token ({@code
 * LockContext.token()}) and are refused, with a {@link dev.padlock.fencing.StaleTokenException}, when the store has
 * already accepted that token or a higher one. A holder whose lease ran out while it was paused cannot then overwrite
 * what the holder after it wrote.
 *
 * <ul>
 *   <li>{@link dev.padlock.fencing.JdbcFence}: a row of a SQL table keeps its highest token in a column; one
 *       {@code UPDATE ... WHERE key = ? AND fence < ?} per write.
 *   <li>{@link dev.padlock.fencing.RedisFence}: a value kept in a Redis hash beside its token; one Lua script per
 *       write.
 * </ul>
 *
 * <p>One module for both: the JDBC side uses only the JDK's {@code java.sql}, and the Redis side uses Redisson, which
 * every Padlock application already has (at the version this module depends on). An application that uses only
 * {@code JdbcFence} loads no Redisson class.
 */
package dev.padlock.fencing;
