package dev.hindsight.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A throwaway database on the machine's PostgreSQL server, dropped when the test resource stops. Where the server
 * is: {@code HINDSIGHT_TEST_PG_HOST} (127.0.0.1), {@code _PORT} (5432), {@code _USER} (postgres),
 * {@code _PASSWORD} (empty: trust authentication).
 */
public final class TestDatabase implements AutoCloseable {

    private final String name;

    private TestDatabase(String name) {
        this.name = name;
    }

    public static TestDatabase create(String purpose) {
        String name = ("hs_test_" + purpose + "_" + UUID.randomUUID().toString().substring(0, 8))
                .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        execute("CREATE DATABASE " + name);
        return new TestDatabase(name);
    }

    public String name() {
        return name;
    }

    public static String host() {
        return setting("HOST", "127.0.0.1");
    }

    public static String port() {
        return setting("PORT", "5432");
    }

    public static String user() {
        return setting("USER", "postgres");
    }

    public static String password() {
        return setting("PASSWORD", "");
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://" + host() + ":" + port() + "/" + name;
    }

    public String reactiveUrl() {
        return "postgresql://" + host() + ":" + port() + "/" + name;
    }

    @Override
    public void close() {
        execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    /**
     * Makes database {@code name} refuse every connection (new ones, superusers' too, and the open ones, which are
     * terminated) or accept them again: PostgreSQL unreachable for one service, the others unaffected.
     */
    public static void refuseConnections(String name, boolean refuse) {
        execute("ALTER DATABASE " + name + " ALLOW_CONNECTIONS " + !refuse);
        if (refuse) {
            execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + name + "'");
        }
    }

    private static void execute(String sql) {
        String url = "jdbc:postgresql://" + host() + ":" + port() + "/postgres";
        try (Connection connection = connect(url, user(), password());
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + host() + ":" + port() + " refused `" + sql + "`: "
                    + e.getMessage() + " (is it running? `deploy/local/postgres.sh ensure` starts it)", e);
        }
    }

    private static String setting(String key, String fallback) {
        String value = System.getenv("HINDSIGHT_TEST_PG_" + key);
        return value == null ? fallback : value;
    }

    /**
     * A connection through PostgreSQL's driver itself, not {@code DriverManager}: DriverManager registers drivers once
     * per JVM and hands them only to callers whose class loader sees the registered class, which a Quarkus test that
     * restarts the application with another profile (a new class loader) does not.
     */
    static Connection connect(String url, String user, String password) throws SQLException {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        Connection connection = new org.postgresql.Driver().connect(url, properties);
        if (connection == null) {
            throw new SQLException("Not a PostgreSQL URL: " + url);
        }
        return connection;
    }
}
