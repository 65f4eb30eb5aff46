package dev.padlock.examples.ledger;

import dev.padlock.Locked;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A read-modify-write of a row under a lock, on the server's default datasource (WildFly: H2, {@code ExampleDS}),
 * enlisted in the caller's transaction. Each increment returns the amount it read.
 */
@ApplicationScoped
public class Counter {

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource database;

    @Locked(value = "ledger", key = "{id}", waitTime = "20s")
    public int increment(String id, Runnable afterRead) {
        return add(id, afterRead);
    }

    /** The control: {@code padlock.locks.ledger-on-return.release=on-return}. */
    @Locked(value = "ledger-on-return", key = "{id}", waitTime = "20s")
    public int incrementOnReturn(String id, Runnable afterRead) {
        return add(id, afterRead);
    }

    private int add(String id, Runnable afterRead) {
        int seen = amount(id);
        afterRead.run();
        try (Connection c = database.getConnection();
                PreparedStatement write = c.prepareStatement("UPDATE ledger_counter SET amount = ? WHERE id = ?")) {
            write.setInt(1, seen + 1);
            write.setString(2, id);
            write.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return seen;
    }

    /** The committed amount when called outside a transaction. */
    public int amount(String id) {
        try (Connection c = database.getConnection();
                PreparedStatement read = c.prepareStatement("SELECT amount FROM ledger_counter WHERE id = ?")) {
            read.setString(1, id);
            try (ResultSet row = read.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new row at 0, committed (called outside a transaction). */
    public void create(String id) {
        try (Connection c = database.getConnection();
                Statement statement = c.createStatement()) {
            statement.executeUpdate(
                    "CREATE TABLE IF NOT EXISTS ledger_counter (id VARCHAR(40) PRIMARY KEY," + " amount INT NOT NULL)");
            statement.executeUpdate("INSERT INTO ledger_counter VALUES ('" + id + "', 0)");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
