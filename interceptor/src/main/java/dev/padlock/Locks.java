package dev.padlock;

/**
 * Runs code under a Padlock lock, for the cases {@link Locked} cannot express: a key computed inside a method, or a
 * lock needed on one branch only. One engine, two front doors: a call here takes the same Redis key, with the same
 * per-lock configuration ({@code padlock.locks."<name>".*}), local queue, renewal, {@link LockLost} reports,
 * {@link LockContext} and metrics as a {@code @Locked} method of that name.
 *
 * <pre>{@code
 * @Inject Locks locks;
 *
 * public void restock(Delivery delivery) {
 *     String sku = catalog.skuOf(delivery.barcode());            // the key is only known here
 *     locks.on("stock", sku).run(() -> stock.add(sku, delivery.quantity()));
 * }
 *
 * Reservation r = locks.on("stock", sku)
 *         .waitTime(Duration.ofSeconds(2))                      // per-call override
 *         .get(() -> stock.reserve(sku, qty));
 * }</pre>
 *
 * <p>The Redis key is {@code <padlock.key-prefix><name>:<key>} ({@code padlock:stock:A-42}), the key rendered from
 * {@code String.valueOf(key)} and escaped exactly as a {@code @Locked} key template renders an argument: a
 * {@code @Locked(value = "stock", key = "{sku}")} method and {@code locks.on("stock", sku)} exclude each other.
 * Several keys are taken together, in sorted order, as a multi-key {@code @Locked} does.
 *
 * <p>Settings resolve as for {@code @Locked}: {@code padlock.locks."<name>".*} beats the per-call value (as it beats
 * an annotation member), which beats the global default. A lock name keeps one type across every {@code @Locked}
 * method, named lock bean and call here; as the types of calls here are known only when they run, a call whose type
 * conflicts with another use of its name fails with {@link LockException} before it takes anything.
 *
 * <p>Inject it anywhere ({@code @Inject Locks locks}); it is thread-safe.
 */
public interface Locks {

    /**
     * The lock {@code name} itself, without a key: Redis key {@code <padlock.key-prefix><name>}.
     *
     * @param name the lock name, as {@link Locked#value()}: no {@code '{'} or {@code '}'}
     * @throws IllegalArgumentException when the name is blank or contains a brace
     */
    LockRequest on(String name);

    /**
     * The lock {@code name} for one key: Redis key {@code <padlock.key-prefix><name>:<key>}.
     *
     * @param key rendered with {@code String.valueOf}, escaped and shortened as a key template renders an argument;
     *     must not be null, and must render the same for equal values in every JVM (not an array, a class inheriting
     *     {@code Object.toString()}, a {@code Date}/{@code Calendar} or an unordered {@code Set}/{@code Map})
     * @throws IllegalArgumentException when the name is invalid, the key is null or renders unstably
     */
    LockRequest on(String name, Object key);

    /**
     * The lock {@code name} for several keys at once, taken in sorted order (so two callers never deadlock) and
     * released together; equal keys are taken once.
     *
     * @throws IllegalArgumentException as {@link #on(String, Object)}, for any of the keys
     */
    LockRequest on(String name, Object key, Object... moreKeys);
}
