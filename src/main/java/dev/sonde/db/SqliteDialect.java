package dev.sonde.db;

import dev.sonde.core.CallerException;
import dev.sonde.db.guard.SqlGuard;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** SQLite: reads run with {@code PRAGMA query_only} inside a transaction that is rolled back. */
final class SqliteDialect extends Dialect {
  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public SqlGuard.Profile guardProfile() {
    return SqlGuard.Profile.SQLITE;
  }

  /** {@code PRAGMA query_only} is the engine's own. */
  @Override
  public boolean enforcesReadOnly() {
    return true;
  }

  @Override
  public void beginRead(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA query_only = ON");
    }
    connection.setAutoCommit(false);
  }

  @Override
  public void endRead(Connection connection) throws SQLException {
    connection.rollback();
    connection.setAutoCommit(true);
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA query_only = OFF");
    }
  }

  @Override
  public String explain(String sql, boolean analyze) {
    if (analyze) {
      throw new CallerException(
          "SQLite has no EXPLAIN ANALYZE; call explain_query without analyze");
    }
    return "EXPLAIN QUERY PLAN " + sql;
  }

  /**
   * The program {@code EXPLAIN} compiles: every cursor it opens on a b-tree ({@code OpenRead},
   * {@code ReopenIdx}) names a root page of the main database, mapped to its table (an index to the
   * table it indexes); a page of another database, an unknown page, or a virtual table ({@code
   * VOpen}: pragma functions, json_each, dbstat) is a source the plan does not name.
   */
  @Override
  public PlannedReads plannedReads(Connection connection, String statement) throws SQLException {
    Map<Integer, String> byRootPage = new HashMap<>();
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SELECT rootpage, tbl_name FROM main.sqlite_master")) {
      while (rs.next()) {
        byRootPage.put(rs.getInt(1), rs.getString(2));
      }
    }
    List<TableRef> tables = new ArrayList<>();
    List<String> others = new ArrayList<>();
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("EXPLAIN " + statement)) {
      while (rs.next()) {
        String opcode = rs.getString("opcode");
        if (opcode.equals("OpenRead") || opcode.equals("ReopenIdx")) {
          String table = rs.getInt("p3") == 0 ? byRootPage.get(rs.getInt("p2")) : null;
          if (table == null) {
            others.add(rs.getInt("p2") == 1 ? "sqlite_schema" : "another database's table");
          } else {
            tables.add(new TableRef(null, null, table, "TABLE"));
          }
        } else if (opcode.equals("VOpen")) {
          others.add("virtual table");
        }
      }
    }
    return new PlannedReads(tables, others);
  }

  @Override
  public List<String> searchPath(Connection connection) {
    return List.of("main", "");
  }
}
