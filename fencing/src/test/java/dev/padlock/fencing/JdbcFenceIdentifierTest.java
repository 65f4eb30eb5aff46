package dev.padlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Names go into the SQL as given, so each is checked when the fence is configured, before any statement exists, and a
 * refusal names the role and the name.
 */
class JdbcFenceIdentifierTest {

    private static final String NOT_AN_IDENTIFIER = "stock; DROP TABLE stock";

    @ParameterizedTest
    @ValueSource(
            strings = {
                NOT_AN_IDENTIFIER,
                "\"stock\"",
                "1stock",
                "",
                " stock",
                "st ock",
                "stock--",
                "st'ock",
                "stöck",
                "stock.",
                ".stock",
                "a..b"
            })
    void aTableThatIsNotAPlainIdentifierIsRefused(String table) {
        assertThatThrownBy(() -> JdbcFence.on(table, "sku", "fence"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid JdbcFence table \"" + table + "\": a plain SQL identifier is expected (ASCII"
                        + " letters, digits and _, not starting with a digit; schema.table for a table in another"
                        + " schema). It is written into the SQL as it is, so nothing else is accepted; for a name that"
                        + " needs quotes, create a view with a plain name.");
    }

    @ParameterizedTest
    @ValueSource(strings = {NOT_AN_IDENTIFIER, "sku = sku OR 1", "schema.sku", "\"sku\"", "9"})
    void aKeyColumnThatIsNotAPlainIdentifierIsRefused(String keyColumn) {
        assertThatThrownBy(() -> JdbcFence.on("stock", keyColumn, "fence"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid JdbcFence key column \"" + keyColumn + "\": a plain SQL identifier is"
                        + " expected (ASCII letters, digits and _, not starting with a digit).");
    }

    @ParameterizedTest
    @ValueSource(strings = {NOT_AN_IDENTIFIER, "fence + 0", "fence)", ""})
    void aFenceColumnThatIsNotAPlainIdentifierIsRefused(String fenceColumn) {
        assertThatThrownBy(() -> JdbcFence.on("stock", "sku", fenceColumn))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid JdbcFence fence column \"" + fenceColumn + "\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {NOT_AN_IDENTIFIER, "qty = 0, fence", "qty=?", ""})
    void aColumnToSetThatIsNotAPlainIdentifierIsRefused(String column) {
        JdbcFence stock = JdbcFence.on("stock", "sku", "fence");

        assertThatThrownBy(() -> stock.setting("qty", column))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid JdbcFence column \"" + column + "\"");
    }

    @Test
    void aMissingNameIsRefused() {
        assertThatThrownBy(() -> JdbcFence.on("stock", null, "fence"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid JdbcFence key column null: a plain SQL identifier is expected");
        assertThatThrownBy(() -> JdbcFence.on(null, "sku", "fence"))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("table");
    }

    @Test
    void theFenceCannotBeTheKeyColumn() {
        assertThatThrownBy(() -> JdbcFence.on("stock", "sku", "SKU"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid JdbcFence fence column SKU on table stock: it is also the key column. Give the"
                        + " token a column of its own (BIGINT NOT NULL DEFAULT 0).");
    }

    @Test
    void theColumnsToSetLeaveOutTheKeyAndTheFenceAndAppearOnce() {
        JdbcFence stock = JdbcFence.on("stock", "sku", "fence");

        assertThatThrownBy(() -> stock.setting("qty", "Fence"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid JdbcFence column Fence on table stock: it is the fence column. List only the"
                        + " columns the write changes; the fence is set to the token by every update.");
        assertThatThrownBy(() -> stock.setting("sku"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid JdbcFence column sku on table stock: it is the key column.");
        assertThatThrownBy(() -> stock.setting("qty", "QTY"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid JdbcFence column QTY on table stock: it is listed twice.");
    }

    @Test
    void plainNamesAndASchemaAreAccepted() {
        assertThat(JdbcFence.on("inventory.stock_2026", "_sku", "Fence").setting("qty", "counted_by"))
                .hasToString("JdbcFence[UPDATE inventory.stock_2026 SET qty = ?, counted_by = ?, Fence = ? WHERE _sku"
                        + " = ? AND Fence < ?]");
    }
}
