package dev.sonde.db;

import dev.sonde.core.CallerException;
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
import org.postgresql.PGConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.Parser;
import org.postgresql.jdbc.PreferQueryMode;
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

  /**
   * Every connection opens read-only by default ({@code default_transaction_read_only}, so even a
   * statement that somehow ran outside a read's transaction could not write; writes open a
   * read-write transaction explicitly) with the statement timeout, and uses the extended protocol
   * for every statement: one Parse message per statement, which the server refuses to hold more
   * than one command.
   */
  @Override
  public Map<String, String> connectionProperties() {
    return Map.of(
        "options",
        "-c statement_timeout="
            + serverTimeoutMillis(timeoutSeconds)
            + " -c default_transaction_read_only=on"
            // the guard reads '\' as the standard says; a server set otherwise reads it as an
            // escape
            + " -c standard_conforming_strings=on",
        "readOnlyMode",
        "transaction",
        "preferQueryMode",
        "extended");
  }

  /**
   * Refuses a pool whose connections do not open as {@link #connectionProperties} asks (a URL's own
   * {@code options} or {@code preferQueryMode} win over Sonde's properties in the driver).
   */
  @Override
  public void verify(Connection connection) throws SQLException {
    PreferQueryMode mode = connection.unwrap(PGConnection.class).getPreferQueryMode();
    if (mode != PreferQueryMode.EXTENDED && mode != PreferQueryMode.EXTENDED_CACHE_EVERYTHING) {
      throw new SQLException(
          "preferQueryMode "
              + mode.value()
              + " sends text through the simple protocol, which runs every statement in it;"
              + " remove preferQueryMode from the URL (Sonde uses extended)");
    }
    try (Statement st = connection.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT current_setting('default_transaction_read_only'),"
                    + " current_setting('statement_timeout')")) {
      rs.next();
      if (!"on".equals(rs.getString(1))) {
        throw new SQLException(
            "connections do not open with default_transaction_read_only=on (does the URL set its"
                + " own options? remove them: Sonde sets the connection's options)");
      }
    }
  }

  /** Writes open a read-write transaction: connections open read-only by default. */
  @Override
  public void beginWrite(Connection connection) throws SQLException {
    super.beginWrite(connection);
    try (Statement st = connection.createStatement()) {
      st.execute("SET TRANSACTION READ WRITE");
    }
  }

  /**
   * pgjdbc's own parser decides how many statements it sends for a text; exactly one may go, and
   * only through the extended protocol.
   */
  @Override
  StatementWall wall() {
    return new StatementWall() {
      @Override
      void before(Connection connection, String sql, boolean prepared) throws SQLException {
        BaseConnection pg = connection.unwrap(BaseConnection.class);
        PreferQueryMode mode = pg.getPreferQueryMode();
        if (mode != PreferQueryMode.EXTENDED && mode != PreferQueryMode.EXTENDED_CACHE_EVERYTHING) {
          throw new CallerException(
              "refused: the connection is in preferQueryMode " + mode.value());
        }
        boolean standard = pg.getStandardConformingStrings();
        // as the driver reads it with escape processing (the default), and as written
        int escaped =
            Parser.parseJdbcSql(
                    Parser.replaceProcessing(sql, true, standard),
                    standard,
                    prepared,
                    true,
                    false,
                    false)
                .size();
        int raw = Parser.parseJdbcSql(sql, standard, prepared, true, false, false).size();
        if (escaped != 1 || raw != 1) {
          throw StatementWall.refused("the PostgreSQL driver", escaped != 1 ? escaped : raw);
        }
      }
    };
  }

  /**
   * The role's privileges beyond reading data: superuser, and membership of the roles that run
   * programs or read and write files on the server. Reported, not refused.
   */
  static List<String> privileges(Connection connection) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = connection.createStatement();
        ResultSet rs =
            st.executeQuery(
                """
                SELECT 'superuser' FROM pg_roles WHERE rolname = current_user AND rolsuper
                UNION ALL
                SELECT r.rolname FROM pg_roles r
                 WHERE r.rolname IN ('pg_execute_server_program', 'pg_read_server_files',
                                     'pg_write_server_files')
                   AND pg_has_role(current_user, r.oid, 'MEMBER')
                """)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  /**
   * The functions that run as another role (SECURITY DEFINER, or a SET role) which {@code role}
   * ("", the login itself) may execute without naming them: behind a cast, an operator (or its
   * estimators), a type's input or output, or a domain's check. The guard refuses such a function
   * by its name; these it never sees.
   */
  static List<String> unnamedOwnerRights(Connection connection, String role) throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement st =
        connection.prepareStatement(
            """
            SELECT DISTINCT p.oid::regprocedure::text || ' (behind '
                   || CASE d.classid WHEN 'pg_catalog.pg_cast'::regclass THEN 'a cast'
                                     WHEN 'pg_catalog.pg_operator'::regclass THEN 'an operator'
                                     WHEN 'pg_catalog.pg_type'::regclass THEN 'a type'
                                     ELSE 'a domain''s check' END || ')'
              FROM pg_catalog.pg_depend d
              JOIN pg_catalog.pg_proc p
                ON d.refclassid = 'pg_catalog.pg_proc'::regclass AND d.refobjid = p.oid
             WHERE (d.classid IN ('pg_catalog.pg_cast'::regclass,
                                  'pg_catalog.pg_operator'::regclass,
                                  'pg_catalog.pg_type'::regclass)
                    OR (d.classid = 'pg_catalog.pg_constraint'::regclass
                        AND EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k
                                     WHERE k.oid = d.objid AND k.contypid <> 0)))
               AND (p.prosecdef OR EXISTS (SELECT 1 FROM unnest(p.proconfig) AS c(setting)
                     WHERE lower(setting) LIKE 'role=%'
                        OR lower(setting) LIKE 'session_authorization=%'))
               AND has_function_privilege(COALESCE(NULLIF(?, ''), current_user), p.oid, 'EXECUTE')
             ORDER BY 1
            """)) {
      st.setString(1, role);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  /** char(n) is left as it is: its length is declared, and a cast to text would trim it. */
  @Override
  protected boolean isLongText(String typeName) {
    return java.util.Set.of("text", "varchar", "json", "jsonb", "xml").contains(typeName);
  }

  @Override
  boolean cutsLongValues() {
    return true;
  }

  /**
   * The read behind a check that PostgreSQL itself makes each time it plans the text: {@code (sql)
   * UNION ALL SELECT NULL, … WHERE false} fails once the read has more or fewer columns than
   * described, and the cut columns are named, so a renamed one fails too; {@code left} is given a
   * text column uncast, so one retyped to a number fails as well. Such a shape may be kept. The
   * empty branch is planned away. With duplicate column names the cut columns can only be read by
   * position, which no check covers: that shape is used once.
   */
  @Override
  ReadShape wrapped(String sql, JsonArray described, int chars) {
    int count = described.size();
    java.util.Set<String> names = new java.util.HashSet<>();
    boolean cut = false;
    for (int i = 0; i < count; i++) {
      names.add(described.getJsonObject(i).getString("name"));
      cut |= isLongText(typeOf(described, i));
    }
    if (cut && names.size() < count) {
      return super.wrapped(sql, described, chars);
    }
    List<String> nulls = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      nulls.add(typedNull(ReadShape.baseType(typeOf(described, i))));
    }
    String checked =
        subquery(sql) + " UNION ALL SELECT " + String.join(", ", nulls) + " WHERE false";
    List<String> resultTypes = new ArrayList<>();
    if (!cut) {
      for (int i = 0; i < count; i++) {
        resultTypes.add(typeOf(described, i));
      }
      return new ReadShape(checked, described, resultTypes, false, true);
    }
    StringBuilder select = new StringBuilder("SELECT ");
    for (int i = 0; i < count; i++) {
      String type = typeOf(described, i);
      String column = "q." + quote(described.getJsonObject(i).getString("name"));
      if (!isLongText(type)) {
        select.append(column);
        resultTypes.add(type);
      } else {
        // text uncast, so a column retyped to a number fails the check; json and xml cast to text
        String asText =
            type.equals("text") || type.equals("varchar") ? column : column + textCast();
        select.append(leftFunction()).append('(').append(asText).append(", ").append(chars);
        select.append(')');
        resultTypes.add("text");
      }
      select.append(" AS ").append(quote(described.getJsonObject(i).getString("name")));
      select.append(i < count - 1 ? ", " : "");
    }
    return new ReadShape(
        select + " FROM (" + checked + ") AS q", described, resultTypes, true, true);
  }

  /** Built-in types the check's empty branch names, so a column retyped across kinds fails it. */
  private static final java.util.Set<String> CHECKED_TYPES =
      java.util.Set.of(
          "bool",
          "int2",
          "int4",
          "int8",
          "float4",
          "float8",
          "numeric",
          "text",
          "date",
          "time",
          "timetz",
          "timestamp",
          "timestamptz",
          "interval",
          "json",
          "jsonb",
          "xml",
          "uuid",
          "bytea");

  /**
   * {@code NULL} of the column's type where it is a built-in one: UNION ALL then fails (42804) once
   * the column has a type of another kind (a number become text, jsonb become text), before any
   * value is read. Other types (varchar and char resolve with text; domains, enums) stay untyped.
   */
  private static String typedNull(String type) {
    return CHECKED_TYPES.contains(type) ? "NULL::pg_catalog." + type : "NULL";
  }

  /** Qualified: a {@code left} someone created in a schema on the search path is never called. */
  @Override
  protected String leftFunction() {
    return "pg_catalog.left";
  }

  /** Qualified: a type named {@code text} in a schema on the search path is never meant. */
  @Override
  protected String textCast() {
    return "::pg_catalog.text";
  }

  /** Judged by {@code pg_proc}: volatility and whether a function runs as its owner. */
  @Override
  public FunctionPolicy functionPolicy(Connection connection) throws SQLException {
    return FunctionPolicy.postgres(guardProfile().denylist(), connection);
  }

  /**
   * "cached plan must not change result type", after a table changed under a prepared statement:
   * its SQLSTATE is every unsupported feature's, so the server's routine tells it apart.
   */
  static boolean stalePlan(String sqlState, String routine) {
    return "0A000".equals(sqlState) && "RevalidateCachedQuery".equals(routine);
  }

  @Override
  public boolean isStalePlan(SQLException e) {
    ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
    return server != null && stalePlan(server.getSQLState(), server.getRoutine());
  }

  /** The SQLSTATEs a kept shape's check fails with once the read's columns changed. */
  private static final java.util.Set<String> CHANGED_COLUMNS =
      java.util.Set.of(
          "42601", // each UNION query must have the same number of columns
          "42703", // a named column is gone
          "42883", // left() of a column no longer text
          "42804"); // the check's typed NULL and the column's new type do not match

  @Override
  boolean isChangedColumns(String sqlState) {
    return changedColumns(sqlState);
  }

  static boolean changedColumns(String sqlState) {
    return CHANGED_COLUMNS.contains(sqlState);
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

  /**
   * The tables and views the current role may read (in a schema it may use): what an account sees
   * is what the database grants its role, as {@code SET LOCAL ROLE} leaves it.
   */
  @Override
  public List<TableRef> tables(Connection connection) throws SQLException {
    List<TableRef> out = new ArrayList<>();
    try (Statement st = connection.createStatement();
        ResultSet rs =
            st.executeQuery(
                """
                SELECT current_database(), n.nspname, c.relname, c.relkind IN ('v', 'm')
                  FROM pg_catalog.pg_class c
                  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                 WHERE c.relkind IN ('r', 'v', 'p', 'm', 'f')
                   AND n.nspname <> 'information_schema' AND left(n.nspname, 3) <> 'pg_'
                   AND has_schema_privilege(n.oid, 'USAGE')
                   AND has_any_column_privilege(c.oid, 'SELECT')
                 ORDER BY 2, 3
                """)) {
      while (rs.next()) {
        out.add(
            new TableRef(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getBoolean(4) ? "VIEW" : "TABLE"));
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
