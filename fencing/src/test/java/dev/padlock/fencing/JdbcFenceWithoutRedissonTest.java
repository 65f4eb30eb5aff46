package dev.padlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * An application that uses only {@link JdbcFence} pays nothing for {@link RedisFence}: this module's classes and a JDBC
 * driver, on a class loader that sees the JDK and nothing else, refuse a stale write as they do with Redisson around.
 */
class JdbcFenceWithoutRedissonTest {

    @Test
    void jdbcFenceWorksWithNoRedissonOnTheClassPath() throws Exception {
        URL fencing = JdbcFence.class.getProtectionDomain().getCodeSource().getLocation();
        URL h2 = JdbcDataSource.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader jdkFencingAndH2 =
                new URLClassLoader(new URL[] {fencing, h2}, ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> Class.forName("org.redisson.api.RedissonClient", false, jdkFencingAndH2))
                    .isInstanceOf(ClassNotFoundException.class);

            DataSource db = (DataSource) jdkFencingAndH2
                    .loadClass(JdbcDataSource.class.getName())
                    .getConstructor()
                    .newInstance();
            db.getClass()
                    .getMethod("setURL", String.class)
                    .invoke(db, "jdbc:h2:mem:without-redisson;DB_CLOSE_DELAY=-1");
            try (Connection c = db.getConnection();
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE stock (sku VARCHAR(8) PRIMARY KEY, qty INT, fence BIGINT NOT NULL DEFAULT 0)");
                s.execute("INSERT INTO stock (sku, qty) VALUES ('A', 0)");

                Class<?> jdbcFence = jdkFencingAndH2.loadClass(JdbcFence.class.getName());
                assertThat(jdbcFence).isNotSameAs(JdbcFence.class);
                Object bare = jdbcFence
                        .getMethod("on", String.class, String.class, String.class)
                        .invoke(null, "stock", "sku", "fence");
                Object stock =
                        jdbcFence.getMethod("setting", String[].class).invoke(bare, (Object) new String[] {"qty"});
                var update = jdbcFence.getMethod("update", Connection.class, Object.class, long.class, Object[].class);

                update.invoke(stock, c, "A", 5L, new Object[] {3});
                assertThatThrownBy(() -> update.invoke(stock, c, "A", 4L, new Object[] {9}))
                        .isInstanceOf(InvocationTargetException.class)
                        .cause()
                        .hasMessageStartingWith("Stale fencing token 4 for key A in table stock")
                        .extracting(e -> e.getClass().getName())
                        .isEqualTo(StaleTokenException.class.getName());
                try (ResultSet row = s.executeQuery("SELECT qty, fence FROM stock")) {
                    row.next();
                    assertThat(row.getInt(1)).isEqualTo(3);
                    assertThat(row.getLong(2)).isEqualTo(5);
                }
            }
        }
    }
}
