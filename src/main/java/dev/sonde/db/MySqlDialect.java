package dev.sonde.db;

import dev.sonde.db.guard.SqlGuard;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * MySQL and MariaDB: reads run in {@code START TRANSACTION READ ONLY} with a per-statement time
 * limit (MySQL's max_execution_time, MariaDB's max_statement_time) and are rolled back.
 */
final class MySqlDialect extends Dialect {
  private final int timeoutSeconds;

  MySqlDialect(int timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }

  @Override
  public String name() {
    return "mysql";
  }

  @Override
  public SqlGuard.Profile guardProfile() {
    return SqlGuard.Profile.MYSQL;
  }

  /** A MyISAM, Aria or MEMORY table keeps a change its transaction rolled back. */
  @Override
  public boolean rollsBackEveryWrite() {
    return false;
  }

  /** {@code START TRANSACTION READ ONLY} is the engine's own. */
  @Override
  public boolean enforcesReadOnly() {
    return true;
  }

  /**
   * A connection must not run several statements from one text (allowMultiQueries, off by default
   * in both drivers): two harmless SELECTs in one text must fail.
   */
  @Override
  public void verify(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SELECT 1; SELECT 2");
    } catch (SQLException e) {
      return;
    }
    throw new SQLException(
        "the connection runs several statements from one text (allowMultiQueries);"
            + " remove allowMultiQueries from the URL");
  }

  @Override
  public String quote(String identifier) {
    return '`' + identifier.replace("`", "``") + '`';
  }

  @Override
  public void beginRead(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      long limit = serverTimeoutMillis(timeoutSeconds);
      limitTime(statement, "SET SESSION max_execution_time = " + limit);
      limitTime(statement, "SET SESSION max_statement_time = " + limit / 1000.0);
      statement.execute("START TRANSACTION READ ONLY");
    }
  }

  /** Each server knows one of the two settings; the other one's error is expected. */
  private static void limitTime(Statement statement, String sql) {
    try {
      statement.execute(sql);
    } catch (SQLException e) {
      // the other server's variable
    }
  }

  @Override
  public void endRead(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("ROLLBACK");
    }
  }

  @Override
  public List<String> searchPath(Connection connection) throws SQLException {
    String database = connection.getCatalog();
    return database == null ? List.of() : List.of(database);
  }

  /** MySQL's databases are JDBC catalogs: system ones are left out by catalog. */
  @Override
  public List<TableRef> tables(Connection connection) throws SQLException {
    return super.tables(connection).stream().filter(t -> !isSystemSchema(t.catalog())).toList();
  }

  @Override
  protected boolean isSystemSchema(String schema) {
    return schema != null
        && List.of("information_schema", "mysql", "performance_schema", "sys")
            .contains(schema.toLowerCase());
  }

  @Override
  public String quoted(TableRef table) {
    StringBuilder out = new StringBuilder();
    if (table.catalog() != null && !table.catalog().isEmpty()) {
      out.append(quote(table.catalog())).append('.');
    }
    return out.append(quote(table.name())).toString();
  }
}
