package dev.padlock.examples.inventory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Levels in a table of the application's database, {@code stock(sku, level)}, through its JTA datasource: reads and
 * writes join the caller's transaction (the resources' {@code @Transactional}), and other instances see a new level
 * once that transaction commits. Plain SQL that H2 and PostgreSQL both take.
 */
final class DatabaseStockStore implements StockStore {

    private final DataSource database;

    DatabaseStockStore(DataSource database) {
        this.database = database;
        update("CREATE TABLE IF NOT EXISTS stock (sku VARCHAR(200) PRIMARY KEY, level INT NOT NULL)");
    }

    @Override
    public int level(String sku) {
        try (Connection c = database.getConnection();
                PreparedStatement read = c.prepareStatement("SELECT level FROM stock WHERE sku = ?")) {
            read.setString(1, sku);
            try (ResultSet row = read.executeQuery()) {
                return row.next() ? row.getInt(1) : 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the level of " + sku, e);
        }
    }

    @Override
    public void set(String sku, int quantity) {
        try (Connection c = database.getConnection();
                PreparedStatement write = c.prepareStatement("UPDATE stock SET level = ? WHERE sku = ?")) {
            write.setInt(1, quantity);
            write.setString(2, sku);
            if (write.executeUpdate() == 0) {
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO stock (sku, level) VALUES (?, ?)")) {
                    insert.setString(1, sku);
                    insert.setInt(2, quantity);
                    insert.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot set the level of " + sku, e);
        }
    }

    @Override
    public Map<String, Integer> all() {
        Map<String, Integer> levels = new TreeMap<>();
        try (Connection c = database.getConnection();
                Statement read = c.createStatement();
                ResultSet rows = read.executeQuery("SELECT sku, level FROM stock")) {
            while (rows.next()) {
                levels.put(rows.getString(1), rows.getInt(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the stock", e);
        }
        return levels;
    }

    private void update(String sql) {
        try (Connection c = database.getConnection();
                Statement statement = c.createStatement()) {
            statement.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create the stock table", e);
        }
    }
}
