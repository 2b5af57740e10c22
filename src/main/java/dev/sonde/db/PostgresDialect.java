package dev.sonde.db;

import dev.sonde.db.guard.FunctionPolicy;
import dev.sonde.db.guard.LexerRules;
import dev.sonde.db.guard.SqlGuard;
import dev.sonde.db.guard.SqlLexer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * PostgreSQL: reads run in {@code BEGIN READ ONLY} (the base class's read-only JDBC transaction,
 * which the driver sends with the query) under a per-connection statement timeout, and are rolled
 * back; the search path comes from the session; sequences and inheritance from the catalog.
 */
final class PostgresDialect extends Dialect {
  private final int timeoutSeconds;

  PostgresDialect(int timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public SqlGuard.Profile guardProfile() {
    return SqlGuard.Profile.POSTGRES;
  }

  /**
   * The PostgreSQL JDBC driver takes every {@code ?} outside quotes and comments for a parameter,
   * so the jsonb operators {@code ?}, {@code ?|} and {@code ?&} would fail ("No value specified for
   * parameter 1"); it reads {@code ??} as one {@code ?}. The lexer that guarded the statement says
   * which are outside, so it cannot disagree with the guard.
   */
  @Override
  public String forPrepare(String sql) {
    return SqlLexer.escapeJdbcPlaceholders(sql, LexerRules.POSTGRES);
  }

  /** {@code BEGIN READ ONLY} is the engine's own. */
  @Override
  public boolean enforcesReadOnly() {
    return true;
  }

  /** The statement timeout is set once per connection, not in every read's transaction. */
  @Override
  public Map<String, String> connectionProperties() {
    return Map.of(
        "options",
        "-c statement_timeout=" + serverTimeoutMillis(timeoutSeconds),
        "readOnlyMode",
        "transaction");
  }

  /** Judged by {@code pg_proc}: volatility and whether a function runs as its owner. */
  @Override
  public FunctionPolicy functionPolicy(Connection connection) throws SQLException {
    return FunctionPolicy.postgres(guardProfile().denylist(), connection);
  }

  /** The SQLSTATE of "cached plan must not change result type", after a column was added. */
  static final String STALE_PLAN = "0A000";

  @Override
  public boolean isStalePlan(String sqlState) {
    return STALE_PLAN.equals(sqlState);
  }

  /** The server's hint helps an agent most ("Perhaps you meant to reference the column …"). */
  @Override
  public String errorText(SQLException e) {
    ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
    return server == null
        ? super.errorText(e)
        : withHint(server.getSeverity() + ": " + server.getMessage(), server.getHint());
  }

  /** One line: the message, then the hint when the server gave one. */
  static String withHint(String message, String hint) {
    return Database.firstLine(message)
        + (hint == null ? "" : " (hint: " + Database.firstLine(hint) + ")");
  }

  @Override
  protected boolean isSystemSchema(String schema) {
    return super.isSystemSchema(schema) || (schema != null && schema.startsWith("pg_"));
  }

  @Override
  public List<TableRef> tables(Connection connection) throws SQLException {
    List<TableRef> out = new ArrayList<>();
    String[] types = {"TABLE", "VIEW", "PARTITIONED TABLE", "MATERIALIZED VIEW", "FOREIGN TABLE"};
    try (ResultSet rs = connection.getMetaData().getTables(null, null, "%", types)) {
      while (rs.next()) {
        String schema = rs.getString("TABLE_SCHEM");
        if (!isSystemSchema(schema)) {
          String type = rs.getString("TABLE_TYPE");
          out.add(
              new TableRef(
                  connection.getCatalog(),
                  schema,
                  rs.getString("TABLE_NAME"),
                  type.contains("VIEW") ? "VIEW" : "TABLE"));
        }
      }
    }
    return out;
  }

  @Override
  public List<String> searchPath(Connection connection) throws SQLException {
    List<String> path = new ArrayList<>();
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SELECT unnest(current_schemas(false))")) {
      while (rs.next()) {
        path.add(rs.getString(1));
      }
    }
    return path;
  }

  @Override
  public JsonArray sequences(Connection connection) throws SQLException {
    String sql =
        """
        SELECT s.schemaname, s.sequencename, s.last_value, s.increment_by, s.min_value, s.max_value, s.cycle,
               (SELECT d.refobjid::regclass::text || '.' || a.attname
                  FROM pg_depend d
                  JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
                 WHERE d.classid = 'pg_class'::regclass
                   AND d.objid = (quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename))::regclass
                   AND d.deptype IN ('a', 'i')
                 LIMIT 1) AS owned_by
          FROM pg_sequences s
         ORDER BY 1, 2
        """;
    JsonArray out = new JsonArray();
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
                .put("owned_by", rs.getString(8)));
      }
    }
    return out;
  }

  @Override
  public JsonObject hierarchy(Connection connection, TableRef table) throws SQLException {
    String edges =
        """
        SELECT p.oid::regclass::text AS parent, c.oid::regclass::text AS child,
               c.relispartition AS partition, pg_get_expr(c.relpartbound, c.oid) AS bound,
               %s AS is_child
          FROM pg_inherits i
          JOIN pg_class c ON c.oid = i.inhrelid
          JOIN pg_class p ON p.oid = i.inhparent
        """;
    JsonArray parents = new JsonArray();
    JsonArray children = new JsonArray();
    String sql =
        table == null
            ? edges.formatted("false") + " ORDER BY 1, 2"
            : edges.formatted("c.oid = ?::regclass")
                + " WHERE p.oid = ?::regclass OR c.oid = ?::regclass ORDER BY 1, 2";
    try (PreparedStatement st = connection.prepareStatement(sql)) {
      if (table != null) {
        String name = quoted(table);
        for (int i = 1; i <= 3; i++) {
          st.setString(i, name);
        }
      }
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          JsonObject edge =
              new JsonObject()
                  .put("parent", rs.getString(1))
                  .put("child", rs.getString(2))
                  .put("kind", rs.getBoolean(3) ? "partition" : "inherits")
                  .put("bound", rs.getString(4));
          (rs.getBoolean(5) ? parents : children).add(edge);
        }
      }
    }
    return new JsonObject().put("parents", parents).put("children", children);
  }

  @Override
  public String version(Connection connection) throws SQLException {
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SHOW server_version")) {
      rs.next();
      return "PostgreSQL " + rs.getString(1);
    }
  }
}
