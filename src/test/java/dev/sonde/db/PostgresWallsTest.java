package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.CallerException;
import dev.sonde.support.Answers;
import dev.sonde.support.Closing;
import dev.sonde.support.HeapPeak;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.TestPostgres;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 17 on PostgreSQL with a superuser role, as the attacker had it: whatever the guard lets
 * through, the JDBC driver is never handed a text it would run as several statements, every pooled
 * connection opens read-only, and the role's privileges are reported.
 */
class PostgresWallsTest {
  static TestPostgres postgres;
  static String url;
  static Path marker;
  static InProcessSonde sonde;
  static ToolCalls tools;
  static HttpMcpClient client;

  @BeforeAll
  static void start() throws Exception {
    postgres = TestPostgres.start();
    url = postgres.createDatabase("walls");
    marker = Files.createTempDirectory("sonde-walls-").resolve("marker.txt");
    try (Connection db = DriverManager.getConnection(url);
        Statement st = db.createStatement()) {
      st.execute("CREATE TABLE canary (v int)");
      // a server that reads '\' as an escape by default: Sonde's sessions must not
      st.execute("ALTER DATABASE walls SET standard_conforming_strings = off");
      st.execute(
          "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'walls_reader') THEN"
              + " CREATE ROLE walls_reader LOGIN; END IF;"
              + " IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'walls_files') THEN"
              + " CREATE ROLE walls_files LOGIN; END IF; END $$");
      st.execute("GRANT SELECT ON canary TO walls_reader");
      st.execute("GRANT pg_read_server_files TO walls_files");
    }
    Map<String, String> config = new HashMap<>();
    config.put("databases.defaultConnection", "pg");
    for (String type : List.of("postgres", "jdbc")) {
      String name = type.equals("postgres") ? "pg" : "jdbcpg";
      put(config, name, type, url);
      put(config, name + "write", type, url);
      put(config, name + "engine", type, url);
      config.put("databases.connections." + name + "engine.guard", "engine-only");
      config.put("databases.connections." + name + "write.readOnly", "false");
      config.put("databases.connections." + name + "write.write", "true");
    }
    put(config, "reader", "jdbc", url.replace("user=postgres", "user=walls_reader"));
    put(config, "files", "postgres", url.replace("user=postgres", "user=walls_files"));
    sonde = new InProcessSonde(config);
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
    tools = new ToolCalls(client);
  }

  private static void put(Map<String, String> config, String name, String type, String url) {
    config.put("databases.connections." + name + ".type", type);
    config.put("databases.connections." + name + ".url", url);
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.inOrder(client, sonde, postgres);
  }

  static JsonObject sql(String connection, String sql) {
    return new JsonObject().put("connection", connection).put("sql", sql);
  }

  static long canary(int value) throws SQLException {
    try (Connection admin = DriverManager.getConnection(url);
        Statement st = admin.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM canary WHERE v = " + value)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The attacker's texts: each hides a second statement behind a comment ended by a CR. */
  private static List<String> smuggled() {
    return List.of(
        "SELECT 1 --x\r; COPY (SELECT 1) TO PROGRAM 'touch " + marker + "'",
        "SELECT 1 --x\r; COMMIT; INSERT INTO canary VALUES (666)",
        "SELECT 1 --x\r; COMMIT; SET statement_timeout = 0");
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aSecondStatementNeverRunsThroughAnyReadTool(String connection) throws Exception {
    for (String text : smuggled()) {
      tools.refused("execute_query", sql(connection, text));
      for (boolean analyze : List.of(false, true)) {
        tools.refused("explain_query", sql(connection, text).put("analyze", analyze));
      }
    }
    assertFalse(Files.exists(marker), "COPY TO PROGRAM ran");
    assertEquals(0, canary(666), "the smuggled INSERT was committed");
    // every pooled connection the reads may get keeps its timeout (no SET survived a COMMIT)
    for (int i = 0; i < 24; i++) {
      for (String c : List.of(connection, connection + "write")) {
        Object timeout =
            tools
                .ok("execute_query", sql(c, "SHOW statement_timeout"))
                .getJsonArray("rows")
                .getJsonArray(0)
                .getValue(0);
        assertNotEquals("0", timeout);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"pgwrite", "jdbcpgwrite"})
  void aWriteRunsOneStatementInAReadWriteTransaction(String connection) throws Exception {
    tools.refused(
        "execute_write",
        sql(
            connection,
            "INSERT INTO canary VALUES (7) --x\r; COMMIT; INSERT INTO canary VALUES (666)"));
    assertEquals(0, canary(666));
    assertEquals(0, canary(7), "nothing of a refused write reaches the server");
    long before = canary(8);
    assertEquals(
        1,
        tools
            .ok("execute_write", sql(connection, "INSERT INTO canary VALUES (8)"))
            .getInteger("affected_rows"));
    assertEquals(before + 1, canary(8), "writes open read-write transactions explicitly");
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg", "pgwrite", "jdbcpgwrite"})
  void everyConnectionOpensReadOnly(String connection) {
    for (String setting : List.of("default_transaction_read_only", "standard_conforming_strings")) {
      assertEquals(
          "on",
          tools
              .ok("execute_query", sql(connection, "SHOW " + setting))
              .getJsonArray("rows")
              .getJsonArray(0)
              .getValue(0),
          setting);
    }
  }

  /** Below the tools, without the guard: the pool's connections themselves refuse. */
  @Test
  void theJdbcPoolRefusesSeveralStatementsWithoutTheGuard() throws Exception {
    PostgresDialect dialect = new PostgresDialect(30);
    try (PooledSource source =
            new PooledSource(url, "", "", 2, dialect.connectionProperties(), dialect.wall());
        Connection c = source.borrow()) {
      dialect.verify(c);
      String two = "SELECT 1; INSERT INTO canary VALUES (666)";
      assertThrows(CallerException.class, () -> c.prepareStatement(two));
      try (Statement st = c.createStatement()) {
        CallerException refusal = assertThrows(CallerException.class, () -> st.execute(two));
        assertTrue(refusal.getMessage().contains("2 statements"), refusal.getMessage());
        assertThrows(
            CallerException.class,
            () -> st.executeUpdate("INSERT INTO canary VALUES (666); COMMIT"));
        // one statement outside any transaction still cannot write
        SQLException readOnly =
            assertThrows(
                SQLException.class, () -> st.executeUpdate("INSERT INTO canary VALUES (666)"));
        assertTrue(readOnly.getMessage().contains("read-only transaction"), readOnly.getMessage());
      }
    }
    assertEquals(0, canary(666));
  }

  @Test
  void aUrlThatUndoesTheWallsIsRefused() throws Exception {
    PostgresDialect dialect = new PostgresDialect(30);
    for (String bad :
        List.of(
            url + "&preferQueryMode=simple",
            url + "&preferQueryMode=extendedForPrepared",
            url + "&options=-c%20search_path%3Dpublic")) {
      try (PooledSource source =
              new PooledSource(bad, "", "", 1, dialect.connectionProperties(), dialect.wall());
          Connection c = source.borrow()) {
        assertThrows(SQLException.class, () -> dialect.verify(c), bad);
      }
    }
  }

  @Test
  void healthNamesTheRolesPrivileges() {
    JsonObject connections =
        tools.ok("health_check", new JsonObject()).getJsonObject("connections");
    for (String name : List.of("pg", "jdbcpg")) {
      JsonObject health = connections.getJsonObject(name);
      assertTrue(health.getBoolean("ok"), health.encode());
      List<Object> privileged = health.getJsonArray("privileged").getList();
      assertTrue(privileged.contains("superuser"), health.encode());
      assertTrue(privileged.contains("pg_execute_server_program"), health.encode());
      assertTrue(health.getString("warning").contains("superuser"), health.encode());
    }
    assertEquals(new JsonArray(), connections.getJsonObject("reader").getJsonArray("privileged"));
    assertFalse(connections.getJsonObject("reader").containsKey("warning"));
    assertEquals(
        new JsonArray().add("pg_read_server_files"),
        connections.getJsonObject("files").getJsonArray("privileged"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void xmlAndOidAreText(String connection) {
    JsonObject answer =
        tools.ok(
            "execute_query",
            sql(
                connection,
                "SELECT '<a>1</a>'::xml AS x, 'pg_class'::regclass::oid AS o,"
                    + " ARRAY['<b/>'::xml] AS xs"));
    JsonArray row = answer.getJsonArray("rows").getJsonArray(0);
    assertEquals("<a>1</a>", row.getValue(0), answer.encode());
    assertEquals("1259", String.valueOf(row.getValue(1)), answer.encode());
    List<String> shown = new ArrayList<>();
    row.getJsonArray(2).forEach(v -> shown.add(String.valueOf(v)));
    assertEquals(List.of("<b/>"), shown, answer.encode());
  }

  /**
   * On both clients a 200 MB value is cut by the server before the driver reads it, on the first
   * call (the read described) and the next (its shape kept).
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aHugeValueIsCutBeforeItIsRead(String connection) {
    for (int call = 1; call <= 2; call++) {
      HeapPeak.Measured<JsonObject> cut =
          HeapPeak.measure(
              () ->
                  tools.ok(
                      "execute_query",
                      sql(connection, "SELECT repeat('x', 200000000) AS v, 1 AS n;")));
      JsonObject answer = cut.answer();
      assertTrue(answer.getBoolean("truncated"));
      String value = answer.getJsonArray("rows").getJsonArray(0).getString(0);
      assertTrue(value.length() <= 4001, "a cut value ends with an ellipsis");
      assertEquals("text", answer.getJsonArray("columns").getJsonObject(0).getString("type"));
      assertEquals("n", answer.getJsonArray("columns").getJsonObject(1).getString("name"));
      // a whole read needs over 400 MB (the driver's bytes and the string); what else the JVM
      // allocates meanwhile on a busy machine can add one young-generation size (96 MiB)
      assertTrue(cut.bytes() < 150_000_000L, "call " + call + ": heap grew " + cut.bytes() + " B");
    }
    // the measure sees a value that is not cut: one inside an array
    long whole =
        HeapPeak.during(
            () ->
                tools.ok(
                    "execute_query", sql(connection, "SELECT ARRAY[repeat('x', 100000000)] AS v")));
    assertTrue(whole > 80_000_000L, "the control grew the heap by " + whole / 1_000_000 + " MB");
    // texts that cannot be wrapped still run as written, in the same transaction
    assertEquals(
        "on",
        tools
            .ok("execute_query", sql(connection, "SHOW default_transaction_read_only"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getValue(0));
  }

  /**
   * A read's shape is kept between calls, yet every answer is the table as it is now: columns
   * added, renamed, retyped and dropped under the same text between two calls all show at once.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aKeptShapeFollowsTheTableAsItChanges(String connection) throws SQLException {
    String table = "shaped_" + connection;
    table(table, "id int, body text", "1, 'abc'");
    String read = "SELECT * FROM " + table + " ORDER BY id";
    for (int call = 0; call < 3; call++) {
      assertEquals("id:int4=1 body:text=abc", shown(connection, read));
    }
    admin("ALTER TABLE " + table + " ADD COLUMN extra text DEFAULT 'e'");
    assertEquals("id:int4=1 body:text=abc extra:text=e", shown(connection, read));
    admin("ALTER TABLE " + table + " RENAME COLUMN body TO content");
    assertEquals("id:int4=1 content:text=abc extra:text=e", shown(connection, read));
    admin("ALTER TABLE " + table + " ALTER COLUMN content TYPE int USING length(content)");
    assertEquals("id:int4=1 content:int4=3 extra:text=e", shown(connection, read));
    admin("ALTER TABLE " + table + " DROP COLUMN extra");
    assertEquals("id:int4=1 content:int4=3", shown(connection, read));
    assertEquals("id:int4=1 content:int4=3", shown(connection, read));
    // no long text column left: the shape without cuts follows the table just the same
    admin("ALTER TABLE " + table + " ADD COLUMN note varchar DEFAULT 'n'");
    assertEquals("id:int4=1 content:int4=3 note:varchar=n", shown(connection, read));
    admin("ALTER TABLE " + table + " ALTER COLUMN note DROP DEFAULT");
    admin("ALTER TABLE " + table + " ALTER COLUMN note TYPE int USING 7");
    assertEquals("id:int4=1 content:int4=3 note:int4=7", shown(connection, read));
    // duplicate names are read by position, described every time
    String twice = "SELECT content AS a, 'x'::text AS a FROM " + table;
    assertEquals("a:int4=3 a:text=x", shown(connection, twice));
    admin("ALTER TABLE " + table + " ALTER COLUMN content TYPE text");
    assertEquals("a:text=3 a:text=x", shown(connection, twice));
  }

  /**
   * A text whose parentheses do not pair up is never wrapped, where Sonde's parentheses could pair
   * with it into a query that means something else: the engine reads it as written and refuses it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aTextWhoseParenthesesDoNotPairUpRunsAsWritten(String connection) {
    for (String unbalanced :
        List.of(
            "SELECT repeat('x', 10) AS a) UNION ALL (SELECT 'b'",
            "SELECT 'a'::text AS a) AS q0, (SELECT 'b'::text AS b")) {
      assertFalse(new PostgresDialect(30).readsAsSubquery(unbalanced), "never wrapped");
      String strict = tools.refused("execute_query", sql(connection, unbalanced));
      assertTrue(strict.contains("could not be parsed"), strict);
      String engine = tools.refused("execute_query", sql(connection + "engine", unbalanced));
      assertTrue(engine.contains("syntax error"), engine);
    }
  }

  private static String shown(String connection, String read) {
    return Answers.firstRow(tools.ok("execute_query", sql(connection, read)));
  }

  /** {@code name} made afresh with these columns and one row. */
  private static void table(String name, String columns, String row) throws SQLException {
    admin("DROP TABLE IF EXISTS " + name);
    admin("CREATE TABLE " + name + " (" + columns + ")");
    admin("INSERT INTO " + name + " VALUES (" + row + ")");
  }

  private static void admin(String statement) throws SQLException {
    try (Connection db = DriverManager.getConnection(url);
        Statement st = db.createStatement()) {
      st.execute(statement);
    }
  }
}
