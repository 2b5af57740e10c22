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
import java.util.concurrent.TimeUnit;
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
    // engine-only: a write behind a read's first keyword is the engine's to refuse
    String engine =
        refused(
            "execute_query",
            sql(connection, "WITH d AS (DELETE FROM track RETURNING 1) SELECT count(*) FROM d")
                .put("connection", connection + "engine"));
    assertTrue(engine.contains("read-only transaction"), engine);
    assertEquals(
        3503,
        ok("execute_query", sql(connection, "SELECT count(*) FROM track"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
  }

  /**
   * Functions are judged by pg_proc, not by a list of spellings (issue 17): volatile ones nobody
   * reviewed, ones that run SQL given as text, and SECURITY DEFINER ones are refused by name; a
   * function created later is judged once the guard reads the catalogue again.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void functionsAreJudgedByWhatTheCatalogueSaysTheyDo(String connection) throws Exception {
    for (String[] refusedCall :
        new String[][] {
          {"SELECT pg_stat_reset()", "pg_stat_reset() is not allowed: the database marks it"},
          {"SELECT pg_stat_reset_shared('bgwriter')", "pg_stat_reset_shared() is not allowed"},
          {"SELECT pg_log_backend_memory_contexts(pg_backend_pid())", "volatile"},
          {"SELECT * FROM pg_ls_logicalsnapdir()", "pg_ls_logicalsnapdir() is not allowed"},
          {"SELECT * FROM pg_ls_replslotdir('x')", "pg_ls_replslotdir() is not allowed"},
          {"SELECT pg_create_physical_replication_slot('s')", "volatile"},
          {"SELECT pg_drop_replication_slot('s')", "volatile"},
          {"SELECT * FROM ts_stat('SELECT to_tsvector(name) FROM genre')", "given as text"},
          {"SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, ''b''::tsquery')", "text"},
          {"SELECT query_to_xml('SELECT 1', true, true, '')", "runs SQL"},
          {"SELECT \"PG_READ_FILE\"('/etc/hostname')", "pg_read_file() is not allowed"},
          {"SELECT setseed(0.5)", "setseed() is not allowed"}
        }) {
      String refusal = refused("execute_query", sql(connection, refusedCall[0]));
      assertTrue(refusal.contains(refusedCall[1]), refusedCall[0] + " -> " + refusal);
    }
    // volatile, but reviewed: they only read or draw random numbers
    ok(
        "execute_query",
        sql(
            connection,
            "SELECT random() < 2 AS r, clock_timestamp() IS NOT NULL AS t,"
                + " pg_total_relation_size('track') > 0 AS s, gen_random_uuid() IS NOT NULL AS u"));
    ok(
        "execute_query",
        sql(connection, "SELECT count(*) FROM track TABLESAMPLE SYSTEM (50) REPEATABLE (1)"));
    // created after the guard first read the catalogue: judged once it is read again
    try (Connection db = DriverManager.getConnection(url);
        Statement st = db.createStatement()) {
      st.execute(
          "CREATE OR REPLACE FUNCTION bump_"
              + connection
              + "() RETURNS int LANGUAGE sql VOLATILE AS 'SELECT 1'");
    }
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    String answer = "";
    while (System.nanoTime() < until && !answer.contains("is not allowed")) {
      Thread.sleep(100);
      answer =
          new ToolCalls(client)
              .call("execute_query", sql(connection, "SELECT bump_" + connection + "()"))
              .getJsonArray("content")
              .getJsonObject(0)
              .getString("text");
    }
    assertTrue(answer.contains("bump_" + connection + "() is not allowed"), answer);
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
    // even engine-only refuses a statement whose first keyword is not a read
    for (String set :
        List.of(
            "SET default_transaction_read_only = off",
            "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE")) {
      String refusal = refused("execute_query", sql(engine, set));
      assertTrue(refusal.contains("SET is not a read"), refusal);
    }
    // set_config is volatile: the catalogue judges it even without the parser
    String refusal =
        refused(
            "execute_query",
            sql(engine, "SELECT set_config('default_transaction_read_only', 'off', false)"));
    assertTrue(refusal.contains("set_config() is not allowed"), refusal);
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
            + "%' AND state = 'active' AND pid <> pg_backend_pid()";
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
    // a write's functions are judged by the catalogue too
    String volatileCall =
        refused(
            "execute_write",
            sql("pgwrite", "INSERT INTO notes (body) SELECT pg_stat_reset()::text"));
    assertTrue(volatileCall.contains("pg_stat_reset() is not allowed"), volatileCall);
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
