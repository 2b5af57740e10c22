package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.TestPostgres;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The database tools on a real PostgreSQL ({@link TestPostgres}: external, Testcontainers or
 * embedded). Chinook comes from ../shared.
 */
class PostgresTest {
  static TestPostgres postgres;
  static String url;
  static InProcessSonde sonde;
  static HttpMcpClient client;

  @BeforeAll
  static void start() throws Exception {
    postgres = TestPostgres.start();
    url = postgres.createChinook("chinook");
    try (Connection db = DriverManager.getConnection(url);
        Statement st = db.createStatement()) {
      st.execute(
          """
          CREATE TABLE notes (id serial PRIMARY KEY, body text);
          CREATE SCHEMA sales; CREATE TABLE sales.notes (id int);
          CREATE SCHEMA a; CREATE SCHEMA b; CREATE TABLE a.x (id int); CREATE TABLE b.x (id int);
          CREATE TABLE measurements (day date NOT NULL, v int) PARTITION BY RANGE (day);
          CREATE TABLE measurements_2024 PARTITION OF measurements FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
          CREATE TABLE cities (name text); CREATE TABLE capitals (state text) INHERITS (cities);
          CREATE TABLE big_cities (population int) INHERITS (cities);
          """);
    }
    Map<String, String> config = new HashMap<>();
    config.put("databases.defaultConnection", "pg");
    // the same three connections on each client: plain, a 1 s timeout, and engine-only
    connections(config, "pg", "postgres", url);
    connections(config, "jdbcpg", "jdbc", url);
    config.put("databases.connections.pgwrite.type", "postgres");
    config.put("databases.connections.pgwrite.url", url);
    config.put("databases.connections.pgwrite.readOnly", "false");
    config.put("databases.connections.pgwrite.write", "true");
    sonde = new InProcessSonde(config);
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
  }

  private static void connections(
      Map<String, String> config, String name, String type, String url) {
    for (String suffix : List.of("", "quick", "engine")) {
      String at = "databases.connections." + name + suffix + ".";
      config.put(at + "type", type);
      config.put(at + "url", url);
    }
    config.put("databases.connections." + name + "quick.queryTimeoutSeconds", "1");
    config.put("databases.connections." + name + "engine.guard", "engine-only");
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    sonde.close();
    postgres.close();
  }

  static JsonObject ok(String tool, JsonObject args) {
    return new ToolCalls(client).ok(tool, args);
  }

  static String refused(String tool, JsonObject args) {
    return new ToolCalls(client).refused(tool, args);
  }

  static JsonObject sql(String connection, String sql) {
    return new JsonObject().put("connection", connection).put("sql", sql);
  }

  @Test
  void chinookSchemaOnPostgres() {
    List<String> names =
        ok("all_table_names", new JsonObject()).getJsonArray("table_names").stream()
            .map(Object::toString)
            .toList();
    assertTrue(
        names.contains("chinook.public.track") && names.contains("chinook.public.invoice_line"),
        names.toString());
    JsonObject track = ok("describe_table", new JsonObject().put("table_name", "track"));
    assertEquals("track_id", track.getJsonArray("columns").getJsonObject(0).getString("name"));
    assertEquals(new JsonArray().add("track_id"), track.getJsonArray("primary_key"));
    List<String> references =
        track.getJsonArray("foreign_keys").stream()
            .map(f -> ((JsonObject) f).getString("references"))
            .sorted()
            .toList();
    assertEquals(
        List.of("chinook.public.album", "chinook.public.genre", "chinook.public.media_type"),
        references);
    JsonArray counts =
        ok(
                "table_row_counts",
                new JsonObject().put("table_names", new JsonArray().add("track").add("invoice")))
            .getJsonArray("counts");
    assertEquals(3503L, counts.getJsonObject(0).getLong("row_count"));
    assertEquals(412L, counts.getJsonObject(1).getLong("row_count"));
  }

  @Test
  void theSearchPathResolvesAndOtherSchemasMustBeQualified() {
    assertTrue(
        ok("describe_table", new JsonObject().put("table_name", "notes"))
            .getString("table")
            .endsWith("public.notes"));
    assertEquals(
        "ambiguous table name 'x'; qualify it with the schema: a.x, b.x",
        refused("describe_table", new JsonObject().put("table_name", "x")));
  }

  /** The reactive client (type: postgres) and JDBC (type: jdbc) must give the same answers. */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void queriesRenderPostgresTypes(String connection) throws Exception {
    JsonArray row =
        ok(
                "execute_query",
                sql(
                    connection,
                    "SELECT sum(unit_price * quantity) AS total, count(*) AS n,"
                        + " max(invoice_date) AS last FROM invoice_line JOIN invoice USING (invoice_id)"))
            .getJsonArray("rows")
            .getJsonArray(0);
    // the same data in SQLite says what the answer is
    try (Connection sqlite =
            DriverManager.getConnection(
                "jdbc:sqlite:../shared/datasets/chinook/Chinook_Sqlite.sqlite");
        Statement st = sqlite.createStatement();
        java.sql.ResultSet rs =
            st.executeQuery(
                "SELECT printf('%.2f', sum(UnitPrice * Quantity)), count(*) FROM InvoiceLine")) {
      rs.next();
      assertEquals(
          rs.getString(1), row.getValue(0), "a NUMERIC sum comes back as an exact decimal string");
      assertEquals(rs.getInt(2), row.getInteger(1));
    }
    assertTrue(row.getString(2).matches("\\d{4}-\\d{2}-\\d{2}T.*"), row.encode());
    ok(
        "execute_query",
        sql(
            connection,
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY milliseconds) FROM track"));
    ok(
        "execute_query",
        sql(
            connection,
            "SELECT DISTINCT ON (genre_id) genre_id, name FROM track ORDER BY genre_id, milliseconds DESC"));
    ok(
        "execute_query",
        sql(
            connection,
            "SELECT g.name, x.n FROM genre g, LATERAL (SELECT count(*) AS n FROM track t WHERE t.genre_id = g.genre_id) x"));
  }

  /**
   * pgjdbc reads a lone ? in a prepared statement as a parameter; the jsonb operators must run as
   * written on both clients, and a ? in a string, quoted name or comment must stay one ?.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void jsonbQuestionMarkOperatorsRun(String connection) {
    String query =
        "SELECT '{\"a\":1}'::jsonb ? 'a' AS has, '{\"a\":1}'::jsonb ?| array['b', 'a'] AS any,"
            + " '{\"a\":1}'::jsonb ?& array['a', 'b'] AS every, '?' AS q, $d$??$d$ AS qq,"
            + " 1 AS \"?\" -- ?\n";
    JsonArray row =
        ok("execute_query", sql(connection, query)).getJsonArray("rows").getJsonArray(0);
    assertEquals(List.of(true, true, false, "?", "??", 1), row.getList(), row.encode());
    assertTrue(
        ok("explain_query", sql(connection, "SELECT '{\"a\":1}'::jsonb ? 'a'"))
            .encode()
            .contains("Result"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void theGuardAndTheEngineBothRefuseWrites(String connection) {
    assertTrue(
        refused("execute_query", sql(connection, "DELETE FROM track"))
            .contains("DELETE changes data"));
    assertTrue(
        refused("execute_query", sql(connection, "SELECT pg_sleep(10)"))
            .contains("pg_sleep() is not allowed"));
    assertTrue(
        refused("execute_query", sql(connection, "SELECT 1; COMMIT; DROP TABLE track"))
            .contains("only one statement"));
    assertTrue(
        refused("execute_query", sql(connection, "SELECT nextval('notes_id_seq')"))
            .contains("nextval() is not allowed"));
    String engine =
        refused(
            "execute_query",
            sql(connection, "DELETE FROM track").put("connection", connection + "engine"));
    assertTrue(engine.contains("read-only transaction"), engine);
    assertEquals(
        3503,
        ok("execute_query", sql(connection, "SELECT count(*) FROM track"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aSlowQueryIsCancelledInTheServerAndTheConnectionStaysUsable(String connection) {
    JsonObject quick = new JsonObject().put("connection", connection + "quick");
    String refusal =
        refused(
            "execute_query",
            quick.copy().put("sql", "SELECT count(*) FROM generate_series(1, 10000000000)"));
    // Sonde's timer stops it (the server's own limit is a later backstop) and says what to do
    assertTrue(refusal.contains("longer than 1 s"), refusal);
    assertEquals(
        1,
        ok("execute_query", quick.copy().put("sql", "SELECT 1"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
    JsonArray running =
        ok(
                "execute_query",
                sql(
                    connection,
                    "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%generate_series(1, 10000000000)%' AND state = 'active' AND pid <> pg_backend_pid()"))
            .getJsonArray("rows")
            .getJsonArray(0);
    assertEquals(
        0, running.getInteger(0), "the statement was stopped in the server, not only abandoned");
  }

  @Test
  void bothClientsRenderEveryTypeAlike() {
    String everyType =
        """
        SELECT 1::int2 AS i2, 2::int4 AS i4, 9007199254740993::int8 AS big, 12.50::numeric(10,2) AS dec,
               1.5::float4 AS f4, 'NaN'::float8 AS nan, true AS flag, 'text'::text AS t,
               'v'::varchar(3) AS v, 'c'::char(2) AS c, DATE '2024-02-29' AS d, TIME '13:14:15' AS tm,
               TIMESTAMP '2024-02-29 13:14:15.123456' AS ts,
               TIMESTAMPTZ '2024-02-29 13:14:15+08' AS tstz,
               '\\x00ff'::bytea AS small_bytes, decode(repeat('ab', 300), 'hex') AS big_bytes,
               'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS id, ARRAY[1, NULL, 3] AS ints,
               ARRAY['x', 'y'] AS texts, NULL::int AS nothing
        """;
    for (String format : List.of("iso", "ms", "ns")) {
      JsonObject args =
          new JsonObject()
              .put("sql", everyType)
              .put("timeformat", format)
              .put("timezone", "Asia/Shanghai");
      JsonObject reactive = ok("execute_query", args.copy().put("connection", "pg"));
      JsonObject jdbc = ok("execute_query", args.copy().put("connection", "jdbcpg"));
      assertEquals(jdbc.getJsonArray("columns"), reactive.getJsonArray("columns"));
      assertEquals(jdbc.getJsonArray("rows"), reactive.getJsonArray("rows"), format);
    }
    JsonArray row =
        ok("execute_query", new JsonObject().put("sql", everyType).put("connection", "pg"))
            .getJsonArray("rows")
            .getJsonArray(0);
    assertEquals("9007199254740993", row.getValue(2), "beyond 2^53 an integer is a string");
    assertEquals("12.50", row.getValue(3));
    assertEquals("2024-02-29T05:14:15Z", row.getValue(13));
    assertEquals("AP8=", row.getValue(14));
    assertEquals("<binary 300 bytes>", row.getValue(15));
    assertEquals(new JsonArray().add(1).addNull().add(3), row.getValue(17));
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void theServersErrorComesWithItsHint(String connection) {
    assertEquals(
        connection
            + ": ERROR: column \"nme\" does not exist"
            + " (hint: Perhaps you meant to reference the column \"genre.name\".)",
        refused("execute_query", sql(connection, "SELECT nme FROM genre")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aHugeResultIsCutAtTheRowLimit(String connection) {
    JsonObject result =
        ok(
            "execute_query",
            sql(connection, "SELECT g, md5(g::text) FROM generate_series(1, 50000000) g")
                .put("limit", 20));
    assertEquals(20, result.getInteger("row_count"));
    assertTrue(result.getBoolean("truncated"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aSettingChangedInARead(String connection) {
    String engine = connection + "engine";
    JsonObject show = sql(engine, "SHOW default_transaction_read_only");
    Object before = ok("execute_query", show).getJsonArray("rows").getJsonArray(0).getValue(0);
    // engine-only leaves SET to the engine, which runs it; the read's rollback then undoes it
    for (String set :
        List.of(
            "SET default_transaction_read_only = off",
            "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE")) {
      assertEquals(
          engine + ": the statement returned no rows to show; execute_query runs queries",
          refused("execute_query", sql(engine, set)));
    }
    String refusal = refused("execute_query", sql(engine, "DELETE FROM notes"));
    assertTrue(refusal.contains("read-only transaction"), refusal);
    assertEquals(
        before,
        ok("execute_query", show).getJsonArray("rows").getJsonArray(0).getValue(0),
        "every read is rolled back, settings included");
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void cancellingACallStopsItsStatementInTheServer(String connection) throws Exception {
    String slow = "SELECT count(*) FROM generate_series(1, 20000000000) AS cancel_me_" + connection;
    CompletableFuture<JsonObject> pending =
        client.send(
            4242,
            "tools/call",
            new JsonObject().put("name", "execute_query").put("arguments", sql(connection, slow)));
    String running =
        "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%cancel_me_"
            + connection
            + "' AND state = 'active' AND pid <> pg_backend_pid()";
    long end = System.currentTimeMillis() + 10_000;
    while (activeCount(running) == 0 && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }
    assertEquals(1, activeCount(running), "the statement is running in the server");
    client.notify(
        "notifications/cancelled", new JsonObject().put("requestId", 4242).put("reason", "enough"));
    while (activeCount(running) > 0 && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }
    assertEquals(0, activeCount(running), "the cancel reached the server");
    assertFalse(
        pending.isDone() && pending.get().containsKey("result"),
        "a cancelled call answers nothing");
    assertEquals(
        1,
        ok("execute_query", sql(connection, "SELECT 1"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
  }

  private static int activeCount(String sql) {
    return ok("execute_query", sql("jdbcpg", sql))
        .getJsonArray("rows")
        .getJsonArray(0)
        .getInteger(0);
  }

  @Test
  void theReactivePoolShowsInHealth() {
    JsonObject pool =
        ok("health_check", new JsonObject())
            .getJsonObject("connections")
            .getJsonObject("pg")
            .getJsonObject("pool");
    assertTrue(pool.containsKey("reactive") && pool.getInteger("reactiveMax") > 0, pool.encode());
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aTableChangedUnderAPreparedQueryStillAnswers(String connection) throws Exception {
    String table = "shifting_" + connection;
    try (Connection db = DriverManager.getConnection(url);
        Statement st = db.createStatement()) {
      st.execute("CREATE TABLE " + table + " (a int); INSERT INTO " + table + " VALUES (1)");
      // every pooled connection prepares the query and keeps it
      for (int i = 0; i < 30; i++) {
        ok("execute_query", sql(connection, "SELECT * FROM " + table));
      }
      st.execute("ALTER TABLE " + table + " ADD COLUMN b int DEFAULT 2");
    }
    for (int i = 0; i < 30; i++) {
      assertEquals(
          new JsonArray().add(1).add(2),
          ok("execute_query", sql(connection, "SELECT * FROM " + table))
              .getJsonArray("rows")
              .getJsonArray(0));
    }
  }

  @Test
  void aWritableReactiveConnectionWritesThroughJdbcAndReadsWhatItWrote() {
    JsonObject write =
        new JsonObject()
            .put("connection", "pgwrite")
            .put("sql", "INSERT INTO notes (body) VALUES ('written by execute_write')");
    assertEquals(1, ok("execute_write", write).getInteger("affected_rows"));
    assertEquals(
        1,
        ok(
                "execute_query",
                sql(
                    "pgwrite",
                    "SELECT count(*) FROM notes WHERE body = 'written by execute_write'"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
    String refusal = refused("execute_query", sql("pgwrite", "DELETE FROM notes"));
    assertTrue(refusal.contains("execute_write"), refusal);
  }

  @Test
  void sequencesAndTheirOwningColumns() {
    JsonArray sequences = ok("list_sequences", new JsonObject()).getJsonArray("sequences");
    JsonObject notes =
        (JsonObject)
            sequences.stream()
                .filter(s -> "public.notes_id_seq".equals(((JsonObject) s).getString("sequence")))
                .findFirst()
                .orElseThrow();
    assertEquals("notes.id", notes.getString("owned_by"));
    assertEquals(1L, notes.getLong("increment"));
    assertFalse(notes.getBoolean("cycle"));
  }

  @Test
  void partitionsAndInheritance() {
    JsonObject partitioned =
        ok("list_table_hierarchy", new JsonObject().put("table_name", "measurements"));
    JsonObject partition = partitioned.getJsonArray("children").getJsonObject(0);
    assertEquals("measurements_2024", partition.getString("child"));
    assertEquals("partition", partition.getString("kind"));
    assertTrue(partition.getString("bound").contains("2024-01-01"), partition.encode());
    JsonObject capitals =
        ok("list_table_hierarchy", new JsonObject().put("table_name", "capitals"));
    assertEquals("cities", capitals.getJsonArray("parents").getJsonObject(0).getString("parent"));
    assertEquals("inherits", capitals.getJsonArray("parents").getJsonObject(0).getString("kind"));
    // a child whose name ends with its parent's is still a child
    JsonObject cities = ok("list_table_hierarchy", new JsonObject().put("table_name", "cities"));
    assertEquals(new JsonArray(), cities.getJsonArray("parents"));
    assertEquals(
        List.of("big_cities", "capitals"),
        cities.getJsonArray("children").stream()
            .map(e -> ((JsonObject) e).getString("child"))
            .sorted()
            .toList());
    assertTrue(ok("list_table_hierarchy", new JsonObject()).getJsonArray("children").size() >= 2);
    assertTrue(
        refused("list_table_hierarchy", new JsonObject().put("table_name", "nope"))
            .contains("unknown table 'nope'"));
  }

  @Test
  void healthReportsThePostgresVersion() {
    JsonObject pg =
        ok("health_check", new JsonObject()).getJsonObject("connections").getJsonObject("pg");
    assertTrue(
        pg.getBoolean("ok") && pg.getString("version").startsWith("PostgreSQL "), pg.encode());
  }
}
