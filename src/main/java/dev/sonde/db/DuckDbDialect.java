package dev.sonde.db;

import dev.sonde.db.guard.FunctionPolicy;
import dev.sonde.db.guard.SqlGuard;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * DuckDB: reads run in {@code BEGIN TRANSACTION READ ONLY} (Sonde itself writes the same file, so
 * the instance cannot be opened read-only); index columns come from {@code duckdb_indexes()}.
 */
final class DuckDbDialect extends Dialect {
  @Override
  public String name() {
    return "duckdb";
  }

  @Override
  public SqlGuard.Profile guardProfile() {
    return SqlGuard.Profile.DUCKDB;
  }

  /** {@code BEGIN TRANSACTION READ ONLY} is the engine's own. */
  @Override
  public boolean enforcesReadOnly() {
    return true;
  }

  /** Judged by {@code duckdb_functions()}: volatility, side effects, table functions. */
  @Override
  public FunctionPolicy functionPolicy(Connection connection) throws SQLException {
    return FunctionPolicy.duckdb(guardProfile().denylist(), connection);
  }

  @Override
  public SqlGuard.EngineParser engineParser(Connection connection) {
    return statement -> {
      try (PreparedStatement serialize =
          connection.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
        serialize.setString(1, statement);
        try (ResultSet rs = serialize.executeQuery()) {
          rs.next();
          return new JsonObject(rs.getString(1));
        }
      }
    };
  }

  @Override
  boolean cutsLongValues() {
    return true;
  }

  @Override
  protected boolean isLongText(String typeName) {
    return typeName.equals("VARCHAR") || typeName.equals("JSON");
  }

  @Override
  public void beginRead(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("BEGIN TRANSACTION READ ONLY");
    }
  }

  @Override
  public void endRead(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("ROLLBACK");
    } catch (SQLException e) {
      // a failed statement can end the transaction on its own; nothing is left to undo
    }
  }

  @Override
  public List<String> searchPath(Connection connection) throws SQLException {
    return List.of("main");
  }

  @Override
  public JsonArray indexes(Connection connection, TableRef table) throws SQLException {
    JsonArray out = new JsonArray();
    List<String> primaryKey = primaryKey(connection.getMetaData(), table);
    if (!primaryKey.isEmpty()) {
      out.add(indexOf(table.name() + "_pkey", true, true, primaryKey));
    }
    String sql =
        "SELECT index_name, is_unique, expressions FROM duckdb_indexes() WHERE schema_name = ? AND table_name = ? ORDER BY index_name";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, table.schema());
      statement.setString(2, table.name());
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          // expressions is a list such as [name] or ["name" DESC]
          String expressions = rs.getString("expressions").replaceAll("^\\[|\\]$", "");
          List<String> columns = List.of(expressions.split(",\\s*"));
          out.add(indexOf(rs.getString("index_name"), rs.getBoolean("is_unique"), false, columns));
        }
      }
    }
    return out;
  }

  private static JsonObject indexOf(
      String name, boolean unique, boolean primary, List<String> columns) {
    JsonArray parts = new JsonArray();
    for (int i = 0; i < columns.size(); i++) {
      String raw = columns.get(i).trim();
      boolean desc = raw.toUpperCase().endsWith(" DESC");
      String column = raw.replaceAll("(?i)\\s+(ASC|DESC)$", "").replace("\"", "");
      parts.add(
          new JsonObject()
              .put("name", column)
              .put("position", i + 1)
              .put("order", desc ? "DESC" : "ASC"));
    }
    return new JsonObject()
        .put("name", name)
        .put("unique", unique)
        .put("primary", primary)
        .put("columns", parts);
  }

  @Override
  public JsonArray sequences(Connection connection) throws SQLException {
    JsonArray out = new JsonArray();
    String sql =
        "SELECT schema_name, sequence_name, last_value, increment_by, min_value, max_value, cycle"
            + " FROM duckdb_sequences() ORDER BY schema_name, sequence_name";
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(
            new JsonObject()
                .put("sequence", rs.getString(1) + "." + rs.getString(2))
                .put("current_value", rs.getObject(3) == null ? null : rs.getLong(3))
                .put("increment", rs.getLong(4))
                .put("min", rs.getLong(5))
                .put("max", rs.getLong(6))
                .put("cycle", rs.getBoolean(7))
                .putNull("owned_by"));
      }
    }
    return out;
  }

  @Override
  public String version(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT version()")) {
      rs.next();
      return "DuckDB " + rs.getString(1);
    }
  }
}
