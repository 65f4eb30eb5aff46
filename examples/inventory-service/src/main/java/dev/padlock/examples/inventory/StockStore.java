package dev.padlock.examples.inventory;

import java.util.Map;

/** Where stock levels live: Redis ({@link RedisStockStore}) or a database ({@link DatabaseStockStore}). */
interface StockStore {

    /** A SKU's level; 0 for a SKU never stocked. */
    int level(String sku);

    void set(String sku, int quantity);

    /** Every SKU's level, sorted by SKU. */
    Map<String, Integer> all();
}
