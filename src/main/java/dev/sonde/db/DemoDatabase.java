package dev.sonde.db;

import dev.sonde.core.Call;
import dev.sonde.core.Quote;
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
import java.util.ArrayList;
import java.util.List;
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
    generate(connection, now, Call.statementsOnly("the demo generation"));
  }

  /**
   * Generates the demo tables in one transaction, each statement a step of {@code call} (its
   * progress is the statement's number); a stopped call rolls everything back.
   */
  static void generate(Connection connection, LocalDateTime now, Call call) throws SQLException {
    long start = System.nanoTime();
    LOG.info("generating the demo database (once; its steps show in the job view)");
    String today = LocalDate.from(now).toString();
    String second =
        now.truncatedTo(ChronoUnit.SECONDS)
            .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
    List<String> statements = new ArrayList<>();
    for (String script : SCRIPTS) {
      for (String sql :
          read(script).replace("{TODAY}", today).replace("{NOW}", second).split(";\\s*\\n")) {
        String bare = sql.replaceAll("(?m)^--.*$", "").strip();
        if (!bare.isEmpty()) {
          statements.add(bare);
        }
      }
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("BEGIN TRANSACTION");
      for (int i = 0; i < statements.size(); i++) {
        call.checkpoint();
        String sql = statements.get(i);
        call.step("generate", (i + 1) + " of " + statements.size() + ": " + headline(sql));
        statement.execute(sql);
      }
      statement.execute("COMMIT");
    } catch (SQLException | RuntimeException e) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("ROLLBACK");
      }
      throw e;
    }
    LOG.info("demo database ready in {} ms", (System.nanoTime() - start) / 1_000_000);
  }

  /** What a statement makes, for people: its first words up to the table's name. */
  private static String headline(String sql) {
    String line = sql.lines().findFirst().orElse("").strip();
    int paren = line.indexOf('(');
    return Quote.cut(paren > 0 ? line.substring(0, paren).strip() : line, 80);
  }

  private static String read(String resource) {
    try (InputStream in = DemoDatabase.class.getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("missing resource " + resource, e);
    }
  }
}
