package dev.sonde.db;

import dev.sonde.db.guard.FunctionPolicy;
import dev.sonde.db.guard.SqlGuard;
import dev.sonde.db.guard.SqlLexer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What differs between engines: read-only mode, identifier quoting and the catalog. The defaults
 * read the catalog through JDBC metadata; an engine overrides what its driver reports poorly.
 */
public abstract class Dialect {
  public abstract String name();

  /** How the guard reads this engine's SQL and which of its functions it refuses. */
  public SqlGuard.Profile guardProfile() {
    return SqlGuard.Profile.GENERIC;
  }

  /**
   * The engine's own statement time limit for a connection whose budget is {@code seconds}: a
   * little longer than the budget, so Sonde's timer stops the statement first and says why, and the
   * engine's limit only catches a statement whose cancel was lost.
   */
  protected static long serverTimeoutMillis(int seconds) {
    return seconds * 1000L + 2000L;
  }

  /**
   * Whether the engine itself refuses writes inside {@link #beginRead}'s transaction. JDBC's
   * read-only connection is only a hint, which some drivers (H2's among them) ignore.
   */
  public boolean enforcesReadOnly() {
    return false;
  }

  /** JDBC properties every connection of this engine opens with. */
  public Map<String, String> connectionProperties() {
    return Map.of();
  }

  /**
   * Checks a newly opened pool's first connection: it must be as {@link #connectionProperties}
   * asked, or the pool is refused.
   */
  public void verify(Connection connection) throws SQLException {}

  /**
   * What every JDBC connection of this engine is wrapped in, so that no text reaches the driver
   * that it would run as more than one statement; null when the driver runs only one.
   */
  StatementWall wall() {
    return null;
  }

  /**
   * Whether rolling back undoes every write the guard lets through. Not on MySQL and MariaDB, where
   * a MyISAM, Aria or MEMORY table keeps a change its transaction rolled back.
   */
  public boolean rollsBackEveryWrite() {
    return true;
  }

  /** Starts a transaction that may change data (a write, or Sonde's own rollups). */
  public void beginWrite(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
  }

  /** The first words of a text that can be read from as a subquery. */
  private static final java.util.Set<String> QUERY_WORDS =
      java.util.Set.of("SELECT", "WITH", "VALUES", "TABLE", "FROM");

  /** Whether long text values are cut by the engine ({@link #shape}) on this engine. */
  boolean cutsLongValues() {
    return false;
  }

  /** The cast to the engine's own text type, as Sonde's shaped reads write it. */
  protected String textCast() {
    return "::text";
  }

  /** The engine's own {@code left}, as Sonde's shaped reads call it. */
  protected String leftFunction() {
    return "left";
  }

  /** Whether the engine cuts a value of this column type with {@code left(value::text, n)}. */
  protected boolean isLongText(String typeName) {
    return false;
  }

  /**
   * Whether {@code sql} starts as a query and its parentheses pair up, so it can be read from as a
   * subquery and means inside one what it means alone.
   */
  boolean readsAsSubquery(String sql) {
    // the engine's own lexical rules (nested comments, quotes), never a pattern that backtracks
    SqlLexer.Scan scan = SqlLexer.scan(sql, guardProfile().lexer());
    return scan.problem() == null
        && scan.balanced()
        && scan.statements().size() == 1
        && QUERY_WORDS.contains(scan.firstWord());
  }

  /**
   * How {@code sql}, whose result the engine describes as {@code described} (name and type per
   * column), is read with every long text column cut by the engine to {@code chars} characters, so
   * a huge value never reaches Sonde whole. Columns are renamed by position (c1, c2, …), so
   * duplicate or missing names do not matter; the answer names them as described. Sent as written
   * when no column needs it, and kept so when the text cannot be wrapped.
   */
  final ReadShape shape(String sql, JsonArray described, int chars) {
    return readsAsSubquery(sql) && !described.isEmpty()
        ? wrapped(sql, described, chars)
        : ReadShape.unwrappable(sql);
  }

  /** {@link #shape} of a text that can be wrapped and has columns. */
  ReadShape wrapped(String sql, JsonArray described, int chars) {
    int count = described.size();
    StringBuilder select = new StringBuilder("SELECT ");
    StringBuilder names = new StringBuilder();
    boolean cut = false;
    for (int i = 1; i <= count; i++) {
      String column = "q.c" + i;
      if (isLongText(typeOf(described, i - 1))) {
        cut = true;
        select.append(leftFunction()).append('(').append(column).append(textCast()).append(", ");
        select.append(chars).append(')');
      } else {
        select.append(column);
      }
      select.append(i < count ? ", " : "");
      names.append('c').append(i).append(i < count ? ", " : "");
    }
    return cut
        ? new ReadShape(
            select + " FROM " + subquery(sql) + " AS q(" + names + ")",
            described,
            null,
            true,
            false)
        : ReadShape.asWritten(sql);
  }

  static String typeOf(JsonArray described, int index) {
    return described.getJsonObject(index).getString("type");
  }

  /**
   * {@code sql} in parentheses without its closing semicolons, on lines of its own: a trailing line
   * comment in the text must not swallow the rest.
   */
  static String subquery(String sql) {
    String body = withoutTrailing(sql);
    while (body.endsWith(";")) {
      body = withoutTrailing(body.substring(0, body.length() - 1));
    }
    return "(\n" + body + "\n)";
  }

  /**
   * {@code sql} without the white space that ends it, as the engines read white space: ASCII only.
   * A trailing non-ASCII space belongs to the name before it (PostgreSQL reads {@code t} and a
   * U+3000 after it as one identifier), so it must stay.
   */
  private static String withoutTrailing(String sql) {
    int end = sql.length();
    while (end > 0 && " \t\n\r\f\u000b".indexOf(sql.charAt(end - 1)) >= 0) {
      end--;
    }
    return sql.substring(0, end);
  }

  /**
   * Whether a kept {@link ReadShape}'s check failed with this SQLSTATE: the read's columns changed.
   */
  boolean isChangedColumns(String sqlState) {
    return false;
  }

  /** What the engine said went wrong, in one line for the caller. */
  public String errorText(SQLException e) {
    return Database.firstLine(e.getMessage());
  }

  /**
   * Whether {@code e} means a prepared statement went stale (its table changed), so the same read
   * run again, prepared anew, would succeed.
   */
  public boolean isStalePlan(SQLException e) {
    return false;
  }

  /**
   * Which functions a read may call here, from the engine's catalogue where it says what each
   * function does; the fixed denylist alone otherwise.
   */
  public FunctionPolicy functionPolicy(Connection connection) throws SQLException {
    return FunctionPolicy.fixed(guardProfile().denylist());
  }

  /**
   * The text to hand the driver's {@code prepareStatement} for a guarded statement that binds no
   * parameters: as it is, unless the driver reads some character in it as a placeholder.
   */
  public String forPrepare(String sql) {
    return sql;
  }

  /**
   * What the engine's plan of {@code statement} reads, as the engine itself resolved it (views
   * expanded, macros inlined, names bound): each table it scans and each table function or other
   * source it calls. Null when the engine does not say; an allow-list needs it.
   */
  public PlannedReads plannedReads(Connection connection, String statement) throws SQLException {
    return null;
  }

  /** The engine's own parser, when it offers one for SELECT statements; null otherwise. */
  public SqlGuard.EngineParser engineParser(Connection connection) {
    return null;
  }

  public String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  /**
   * Puts the connection in the engine's read-only mode for one read; {@link #endRead} undoes it.
   */
  public void beginRead(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
    connection.setReadOnly(true);
  }

  /** Ends a read: whatever it did is rolled back. */
  public void endRead(Connection connection) throws SQLException {
    connection.rollback();
    connection.setReadOnly(false);
    connection.setAutoCommit(true);
  }

  /** The schemas an unqualified table name is looked up in, in order. */
  public List<String> searchPath(Connection connection) throws SQLException {
    String schema = connection.getSchema();
    return schema == null ? List.of() : List.of(schema);
  }

  /** Schemas that are the engine's own, left out of table listings. */
  protected boolean isSystemSchema(String schema) {
    return schema != null
        && (schema.equalsIgnoreCase("information_schema") || schema.equalsIgnoreCase("pg_catalog"));
  }

  public List<TableRef> tables(Connection connection) throws SQLException {
    List<TableRef> out = new ArrayList<>();
    try (ResultSet rs =
        connection
            .getMetaData()
            .getTables(null, null, "%", new String[] {"TABLE", "VIEW", "BASE TABLE"})) {
      while (rs.next()) {
        String schema = rs.getString("TABLE_SCHEM");
        if (!isSystemSchema(schema)) {
          String type = rs.getString("TABLE_TYPE");
          out.add(
              new TableRef(
                  rs.getString("TABLE_CAT"),
                  schema,
                  rs.getString("TABLE_NAME"),
                  type.contains("VIEW") ? "VIEW" : "TABLE"));
        }
      }
    }
    return out;
  }

  /** Columns in definition order, primary key in key order, indexes, foreign keys and comment. */
  public JsonObject describe(Connection connection, TableRef table) throws SQLException {
    DatabaseMetaData md = connection.getMetaData();
    List<String> primaryKey = primaryKey(md, table);
    JsonArray columns = new JsonArray();
    try (ResultSet rs = md.getColumns(table.catalog(), table.schema(), table.name(), "%")) {
      List<JsonObject> ordered = new ArrayList<>();
      while (rs.next()) {
        String name = rs.getString("COLUMN_NAME");
        ordered.add(
            new JsonObject()
                .put("position", rs.getInt("ORDINAL_POSITION"))
                .put("name", name)
                .put("type", rs.getString("TYPE_NAME"))
                .put("nullable", !"NO".equalsIgnoreCase(rs.getString("IS_NULLABLE")))
                .put("default", rs.getString("COLUMN_DEF"))
                .put("primary_key", primaryKey.contains(name))
                .put("comment", rs.getString("REMARKS")));
      }
      ordered.sort((a, b) -> Integer.compare(a.getInteger("position"), b.getInteger("position")));
      ordered.forEach(columns::add);
    }
    return new JsonObject()
        .put("table", table.qualified())
        .put("kind", table.kind())
        .put("comment", comment(md, table))
        .put("columns", columns)
        .put("primary_key", new JsonArray(primaryKey))
        .put("indexes", indexes(connection, table))
        .put("foreign_keys", foreignKeys(md, table));
  }

  protected List<String> primaryKey(DatabaseMetaData md, TableRef table) throws SQLException {
    Map<Integer, String> bySeq = new java.util.TreeMap<>();
    try (ResultSet rs = md.getPrimaryKeys(table.catalog(), table.schema(), table.name())) {
      while (rs.next()) {
        bySeq.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
      }
    }
    return new ArrayList<>(bySeq.values());
  }

  protected String comment(DatabaseMetaData md, TableRef table) throws SQLException {
    try (ResultSet rs = md.getTables(table.catalog(), table.schema(), table.name(), null)) {
      return rs.next() ? rs.getString("REMARKS") : null;
    }
  }

  /** Indexes: name, unique, primary, columns with position and ASC/DESC. */
  public JsonArray indexes(Connection connection, TableRef table) throws SQLException {
    DatabaseMetaData md = connection.getMetaData();
    List<String> primaryKey = primaryKey(md, table);
    Map<String, JsonObject> byName = new LinkedHashMap<>();
    try (ResultSet rs =
        md.getIndexInfo(table.catalog(), table.schema(), table.name(), false, false)) {
      while (rs.next()) {
        String name = rs.getString("INDEX_NAME");
        String column = rs.getString("COLUMN_NAME");
        if (name == null || column == null) {
          continue;
        }
        JsonObject index =
            byName.computeIfAbsent(
                name, n -> new JsonObject().put("name", n).put("columns", new JsonArray()));
        index.put("unique", !rs.getBoolean("NON_UNIQUE"));
        String order = rs.getString("ASC_OR_DESC");
        index
            .getJsonArray("columns")
            .add(
                new JsonObject()
                    .put("name", column)
                    .put("position", rs.getInt("ORDINAL_POSITION"))
                    .put("order", "D".equals(order) ? "DESC" : "ASC"));
      }
    }
    JsonArray out = new JsonArray();
    byName
        .values()
        .forEach(
            index -> {
              List<String> names =
                  index.getJsonArray("columns").stream()
                      .map(c -> ((JsonObject) c).getString("name"))
                      .toList();
              out.add(
                  index.put(
                      "primary",
                      !primaryKey.isEmpty()
                          && names.equals(primaryKey)
                          && index.getBoolean("unique")));
            });
    return out;
  }

  protected JsonArray foreignKeys(DatabaseMetaData md, TableRef table) throws SQLException {
    Map<String, JsonObject> byKey = new LinkedHashMap<>();
    String unnamed = null;
    try (ResultSet rs = md.getImportedKeys(table.catalog(), table.schema(), table.name())) {
      while (rs.next()) {
        String referenced =
            new TableRef(
                    rs.getString("PKTABLE_CAT"),
                    rs.getString("PKTABLE_SCHEM"),
                    rs.getString("PKTABLE_NAME"),
                    "TABLE")
                .qualified();
        String name = rs.getString("FK_NAME");
        String key;
        if (name != null && !name.isEmpty()) {
          key = name;
        } else {
          // unnamed keys (SQLite): a key sequence of 1 starts the next one
          if (rs.getInt("KEY_SEQ") <= 1 || unnamed == null) {
            unnamed = "#" + byKey.size();
          }
          key = unnamed;
        }
        JsonObject fk =
            byKey.computeIfAbsent(
                key,
                k ->
                    new JsonObject()
                        .put("name", name == null || name.isEmpty() ? null : name)
                        .put("references", referenced)
                        .put("columns", new JsonArray())
                        .put("referenced_columns", new JsonArray()));
        fk.getJsonArray("columns").add(rs.getString("FKCOLUMN_NAME"));
        fk.getJsonArray("referenced_columns").add(rs.getString("PKCOLUMN_NAME"));
      }
    }
    return new JsonArray(new ArrayList<>(byKey.values()));
  }

  /**
   * The statement that explains {@code sql}; ANALYZE runs it (inside the read-only transaction).
   */
  public String explain(String sql, boolean analyze) {
    return (analyze ? "EXPLAIN ANALYZE " : "EXPLAIN ") + sql;
  }

  /** Sequences with current value, increment, bounds, cycle and owning column; none by default. */
  public JsonArray sequences(Connection connection) throws SQLException {
    return new JsonArray();
  }

  /**
   * Inheritance and partitions around {@code table} (or all of them when null): its parents and its
   * children with their partition bounds. Engines without inheritance answer with empty lists.
   */
  public JsonObject hierarchy(Connection connection, TableRef table) throws SQLException {
    return new JsonObject()
        .put("parents", new JsonArray())
        .put("children", new JsonArray())
        .put("note", name() + " has no table inheritance or partitions");
  }

  /** The engine's version, for health checks. */
  public String version(Connection connection) throws SQLException {
    DatabaseMetaData md = connection.getMetaData();
    return md.getDatabaseProductName() + " " + md.getDatabaseProductVersion();
  }

  /** Counts the rows of a table (quoted from its parts, never from user text). */
  public long rowCount(Connection connection, TableRef table) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT count(*) FROM " + quoted(table))) {
      rs.next();
      return rs.getLong(1);
    }
  }

  public String quoted(TableRef table) {
    StringBuilder out = new StringBuilder();
    if (table.schema() != null && !table.schema().isEmpty()) {
      out.append(quote(table.schema())).append('.');
    }
    return out.append(quote(table.name())).toString();
  }
}
