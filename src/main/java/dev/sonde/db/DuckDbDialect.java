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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

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

  /**
   * The JSON plan's scans: a node naming a {@code Table} scans it, one naming a {@code Function}
   * calls it, and any other node whose name ends in {@code _SCAN} and is not one of the engine's
   * scans of its own intermediate results reads a source the plan does not name.
   */
  @Override
  public PlannedReads plannedReads(Connection connection, String statement) throws SQLException {
    JsonArray plan;
    // prepared: DuckDB's JDBC driver hides a plain statement's error
    try (PreparedStatement st = connection.prepareStatement("EXPLAIN (FORMAT json) " + statement);
        ResultSet rs = st.executeQuery()) {
      plan = new JsonArray();
      while (rs.next()) {
        plan.addAll(new JsonArray(rs.getString(2)));
      }
    }
    List<TableRef> tables = new ArrayList<>();
    List<String> others = new ArrayList<>();
    planned(plan, tables, others);
    return new PlannedReads(tables, others);
  }

  /** DuckDB's scans of what the plan itself made: no data of any table beyond it. */
  private static final Set<String> OWN_SCANS =
      Set.of(
          "DUMMY_SCAN",
          "COLUMN_DATA_SCAN",
          "CTE_SCAN",
          "RECURSIVE_CTE_SCAN",
          "DELIM_SCAN",
          "CHUNK_SCAN",
          "EMPTY_RESULT",
          "EXPRESSION_SCAN",
          "RECURSIVE_RECURRING_CTE_SCAN");

  private static void planned(Object node, List<TableRef> tables, List<String> others) {
    if (node instanceof JsonArray array) {
      array.forEach(child -> planned(child, tables, others));
      return;
    }
    if (!(node instanceof JsonObject operator)) {
      return;
    }
    String name = operator.getString("name", "");
    JsonObject info =
        operator.getValue("extra_info") instanceof JsonObject extra ? extra : new JsonObject();
    if (info.getValue("Table") instanceof String table) {
      String[] parts = table.split("\\.", 3);
      tables.add(
          parts.length == 3
              ? new TableRef(parts[0], parts[1], parts[2], "TABLE")
              : new TableRef(null, null, table, "TABLE"));
    } else if (info.getValue("Function") instanceof String function) {
      others.add(function);
    } else if (name.endsWith("_SCAN") && !OWN_SCANS.contains(name)) {
      others.add(name);
    }
    planned(operator.getValue("children"), tables, others);
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
