package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sonde.core.CallerException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What H2's and SQLite's drivers do with a text of two statements, and that Sonde's connections
 * never let the second one run.
 */
class OneStatementDriversTest {
  private static final String TWO = "SELECT 1; INSERT INTO canary VALUES (666)";

  static long canary(Connection c) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM canary")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** H2 runs every statement of a text, prepared or plain: its wall refuses both. */
  @Test
  void h2RunsBothStatementsUnlessTheWallRefuses() throws Exception {
    String url = "jdbc:h2:mem:walls;DB_CLOSE_DELAY=-1";
    try (Connection admin = DriverManager.getConnection(url);
        Statement st = admin.createStatement()) {
      st.execute("CREATE TABLE canary (v INT)");
      // the bare driver: the second statement runs
      try (PreparedStatement ps = admin.prepareStatement(TWO)) {
        ps.execute();
      }
      assertEquals(1, canary(admin), "H2's driver ran the second statement");
      st.execute("DELETE FROM canary");
      H2Dialect dialect = new H2Dialect();
      try (PooledSource source = new PooledSource(url, "", "", 1, Map.of(), dialect.wall());
          Connection c = source.borrow()) {
        assertThrows(CallerException.class, () -> c.prepareStatement(TWO));
        assertThrows(CallerException.class, () -> c.prepareStatement(TWO + ";"));
        try (Statement plain = c.createStatement()) {
          assertThrows(CallerException.class, () -> plain.execute(TWO));
          assertThrows(CallerException.class, () -> plain.executeQuery("SELECT 1; SELECT 2"));
        }
        try (PreparedStatement one = c.prepareStatement("SELECT count(*) FROM canary;")) {
          one.executeQuery().close();
        }
      }
      assertEquals(0, canary(admin));
    }
  }

  /** SQLite's driver compiles the first statement of a text only: the rest never runs. */
  @Test
  void sqliteRunsOnlyTheFirstStatement() throws Exception {
    Path file = Files.createTempFile("walls-", ".sqlite");
    String url = "jdbc:sqlite:" + file;
    try (Connection admin = DriverManager.getConnection(url);
        Statement st = admin.createStatement()) {
      st.execute("CREATE TABLE canary (v INT)");
      try (PooledSource source =
              new PooledSource(url, "", "", 1, Map.of(), new SqliteDialect().wall());
          Connection c = source.borrow()) {
        for (String text : List.of(TWO, "SELECT 1;\r INSERT INTO canary VALUES (666)")) {
          try (PreparedStatement ps = c.prepareStatement(text)) {
            ps.execute();
          }
          try (Statement plain = c.createStatement()) {
            plain.execute(text);
          }
        }
      }
      assertEquals(0, canary(admin));
    }
  }
}
