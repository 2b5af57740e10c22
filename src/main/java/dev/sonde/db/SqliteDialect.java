package dev.sonde.db;

import dev.sonde.core.CallerException;
import dev.sonde.db.guard.SqlGuard;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

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

  @Override
  public List<String> searchPath(Connection connection) {
    return List.of("main", "");
  }
}
