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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The database tools on a real PostgreSQL ({@link TestPostgres}: external, Testcontainers or
 * embedded). Chinook comes from ../shared.
 */
class PostgresTest {
  static TestPostgres postgres;
  static InProcessSonde sonde;
  static HttpMcpClient client;

  @BeforeAll
  static void start() throws Exception {
    postgres = TestPostgres.start();
    String url = postgres.createChinook("chinook");
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
          """);
    }
    sonde =
        new InProcessSonde(
            Map.of(
                "databases.defaultConnection", "pg",
                "databases.connections.pg.type", "jdbc",
                "databases.connections.pg.url", url,
                "databases.connections.pgquick.type", "jdbc",
                "databases.connections.pgquick.url", url,
                "databases.connections.pgquick.queryTimeoutSeconds", "1",
                "databases.connections.pgengine.type", "jdbc",
                "databases.connections.pgengine.url", url,
                "databases.connections.pgengine.guard", "engine-only"));
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
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

  static JsonObject sql(String sql) {
    return new JsonObject().put("sql", sql);
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

  @Test
  void queriesRenderPostgresTypes() throws Exception {
    JsonArray row =
        ok(
                "execute_query",
                sql(
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
        sql("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY milliseconds) FROM track"));
    ok(
        "execute_query",
        sql(
            "SELECT DISTINCT ON (genre_id) genre_id, name FROM track ORDER BY genre_id, milliseconds DESC"));
    ok(
        "execute_query",
        sql(
            "SELECT g.name, x.n FROM genre g, LATERAL (SELECT count(*) AS n FROM track t WHERE t.genre_id = g.genre_id) x"));
  }

  @Test
  void theGuardAndTheEngineBothRefuseWrites() {
    assertTrue(refused("execute_query", sql("DELETE FROM track")).contains("DELETE changes data"));
    assertTrue(
        refused("execute_query", sql("SELECT pg_sleep(10)")).contains("pg_sleep() is not allowed"));
    assertTrue(
        refused("execute_query", sql("SELECT 1; COMMIT; DROP TABLE track"))
            .contains("only one statement"));
    assertTrue(
        refused("execute_query", sql("SELECT nextval('notes_id_seq')"))
            .contains("nextval() is not allowed"));
    String engine =
        refused("execute_query", sql("DELETE FROM track").put("connection", "pgengine"));
    assertTrue(engine.contains("read-only transaction"), engine);
    assertEquals(
        3503,
        ok("execute_query", sql("SELECT count(*) FROM track"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
  }

  @Test
  void aSlowQueryIsCancelledInTheServerAndTheConnectionStaysUsable() {
    JsonObject quick = new JsonObject().put("connection", "pgquick");
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
                    "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%generate_series(1, 10000000000)%' AND state = 'active' AND pid <> pg_backend_pid()"))
            .getJsonArray("rows")
            .getJsonArray(0);
    assertEquals(
        0, running.getInteger(0), "the statement was stopped in the server, not only abandoned");
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
