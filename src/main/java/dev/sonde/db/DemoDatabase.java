package dev.sonde.db;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generates the demo database into an empty DuckDB file: the retail shop and the time-series tag
 * tables of {@code sql/demo/}. Deterministic for a given day; one transaction, so a generation cut
 * short leaves no half-built tables behind.
 */
final class DemoDatabase {
  private static final Logger LOG = LoggerFactory.getLogger(DemoDatabase.class);
  private static final String[] SCRIPTS = {"/sql/demo/retail.sql", "/sql/demo/timeseries.sql"};

  private DemoDatabase() {}

  static boolean isPresent(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs =
            statement.executeQuery(
                "SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'order_items'")) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }

  static void generate(Connection connection, LocalDateTime now) throws SQLException {
    long start = System.nanoTime();
    LOG.info("generating the demo database (a few seconds, once)");
    String today = LocalDate.from(now).toString();
    String second =
        now.truncatedTo(ChronoUnit.SECONDS)
            .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
    try (Statement statement = connection.createStatement()) {
      statement.execute("BEGIN TRANSACTION");
      for (String script : SCRIPTS) {
        for (String sql :
            read(script).replace("{TODAY}", today).replace("{NOW}", second).split(";\\s*\\n")) {
          if (!sql.replaceAll("(?m)^--.*$", "").isBlank()) {
            statement.execute(sql);
          }
        }
      }
      statement.execute("COMMIT");
    } catch (SQLException e) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("ROLLBACK");
      }
      throw e;
    }
    LOG.info("demo database ready in {} ms", (System.nanoTime() - start) / 1_000_000);
  }

  private static String read(String resource) {
    try (InputStream in = DemoDatabase.class.getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("missing resource " + resource, e);
    }
  }
}
