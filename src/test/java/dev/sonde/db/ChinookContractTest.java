package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.ChinookCopy;
import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.TestPostgres;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One contract, four engines: Chinook on SQLite (the shared file), DuckDB and H2 (copied from it)
 * and PostgreSQL (its own script, snake_case names), the last both through its reactive client
 * ({@code type: postgres}) and through JDBC ({@code pgjdbc}). The same calls must give the same
 * answers; names are written PascalCase in {braces} and spelled per engine.
 */
class ChinookContractTest {
  static TestPostgres postgres;
  static InProcessSonde sonde;
  static HttpMcpClient client;
  static long ids = 1;
  static Map<String, Long> expectedCounts = new LinkedHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    Path dir = Files.createTempDirectory("sonde-chinook-");
    Path sqlite = dir.resolve("chinook.sqlite");
    Files.copy(DatabaseSonde.CHINOOK, sqlite);
    String duckdb = dir.resolve("chinook.duckdb").toString();
    ChinookCopy.into("jdbc:duckdb:" + duckdb);
    ChinookCopy.into("jdbc:h2:mem:chinook_contract;DB_CLOSE_DELAY=-1");
    postgres = TestPostgres.start();
    String pg = postgres.createChinook("chinook_contract");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite);
        Statement st = c.createStatement()) {
      for (String table : ChinookCopy.TABLES) {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
          rs.next();
          expectedCounts.put(table, rs.getLong(1));
        }
      }
    }
    sonde =
        new InProcessSonde(
            Map.ofEntries(
                Map.entry("databases.connections.sqlite.type", "jdbc"),
                Map.entry("databases.connections.sqlite.url", "jdbc:sqlite:" + sqlite),
                Map.entry("databases.connections.duckdb.type", "duckdb"),
                Map.entry("databases.connections.duckdb.path", duckdb),
                Map.entry("databases.connections.h2.type", "jdbc"),
                Map.entry(
                    "databases.connections.h2.url",
                    "jdbc:h2:mem:chinook_contract;DB_CLOSE_DELAY=-1"),
                Map.entry("databases.connections.postgres.type", "postgres"),
                Map.entry("databases.connections.postgres.url", pg),
                Map.entry("databases.connections.pgjdbc.type", "jdbc"),
                Map.entry("databases.connections.pgjdbc.url", pg)));
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    sonde.close();
    postgres.close();
  }

  /** Spells {Name} for an engine: PostgreSQL's Chinook uses snake_case. */
  static String spell(String engine, String template) {
    Matcher m = Pattern.compile("\\{(\\w+)}").matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      m.appendReplacement(
          out,
          engine.startsWith("p")
              ? name.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT)
              : name);
    }
    return m.appendTail(out).toString();
  }

  /** Compares names across spellings: TrackId, TRACKID and track_id are the same. */
  static String canonical(String name) {
    String last = name.substring(name.lastIndexOf('.') + 1);
    return last.replace("_", "").toLowerCase(Locale.ROOT);
  }

  static JsonObject ok(String engine, String tool, JsonObject args) {
    JsonObject result =
        client
            .request(
                ids++,
                "tools/call",
                new JsonObject().put("name", tool).put("arguments", args.put("connection", engine)))
            .getJsonObject("result");
    assertFalse(result.getBoolean("isError", false), engine + ": " + result.encode());
    return result.getJsonObject("structuredContent");
  }

  static String refused(String engine, String sql) {
    JsonObject result =
        client
            .request(
                ids++,
                "tools/call",
                new JsonObject()
                    .put("name", "execute_query")
                    .put("arguments", new JsonObject().put("connection", engine).put("sql", sql)))
            .getJsonObject("result");
    assertTrue(result.getBoolean("isError", false), engine + " let this through: " + sql);
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  static List<List<String>> rows(String engine, String template) {
    JsonArray rows =
        ok(engine, "execute_query", new JsonObject().put("sql", spell(engine, template)))
            .getJsonArray("rows");
    List<List<String>> out = new ArrayList<>();
    rows.forEach(
        r ->
            out.add(
                ((JsonArray) r)
                    .stream()
                        .map(
                            v ->
                                v instanceof Number n
                                    ? String.format(Locale.ROOT, "%.2f", n.doubleValue())
                                    : v == null
                                        ? "null"
                                        : v.toString().matches("-?\\d+(\\.\\d+)?")
                                            ? String.format(
                                                Locale.ROOT,
                                                "%.2f",
                                                Double.parseDouble(v.toString()))
                                            : v.toString())
                        .toList()));
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "duckdb", "h2", "postgres", "pgjdbc"})
  void theTablesAndTheirSizes(String engine) {
    List<String> tables =
        ok(engine, "list_tables", new JsonObject()).getJsonArray("tables").stream()
            .map(t -> canonical(((JsonObject) t).getString("name")))
            .sorted()
            .toList();
    assertEquals(
        ChinookCopy.TABLES.stream().map(ChinookContractTest::canonical).sorted().toList(), tables);
    JsonArray names = new JsonArray();
    ChinookCopy.TABLES.forEach(t -> names.add(spell(engine, "{" + t + "}")));
    JsonArray counts =
        ok(engine, "table_row_counts", new JsonObject().put("table_names", names))
            .getJsonArray("counts");
    for (int i = 0; i < ChinookCopy.TABLES.size(); i++) {
      assertEquals(
          expectedCounts.get(ChinookCopy.TABLES.get(i)),
          counts.getJsonObject(i).getLong("row_count"),
          engine + " " + ChinookCopy.TABLES.get(i));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "duckdb", "h2", "postgres", "pgjdbc"})
  void describeTrack(String engine) {
    JsonObject track =
        ok(engine, "describe_table", new JsonObject().put("table_name", spell(engine, "{Track}")));
    assertEquals(
        List.of(
            "trackid",
            "name",
            "albumid",
            "mediatypeid",
            "genreid",
            "composer",
            "milliseconds",
            "bytes",
            "unitprice"),
        track.getJsonArray("columns").stream()
            .map(c -> canonical(((JsonObject) c).getString("name")))
            .toList());
    assertEquals(
        List.of("trackid"),
        track.getJsonArray("primary_key").stream().map(c -> canonical(c.toString())).toList());
    assertEquals(
        List.of("album", "genre", "mediatype"),
        track.getJsonArray("foreign_keys").stream()
            .map(f -> canonical(((JsonObject) f).getString("references")))
            .sorted()
            .toList());
    assertFalse(
        track.getJsonArray("columns").getJsonObject(1).getBoolean("nullable"), "Name is NOT NULL");
    assertTrue(
        track.getJsonArray("columns").getJsonObject(5).getBoolean("nullable"),
        "Composer may be null");
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "duckdb", "h2", "postgres", "pgjdbc"})
  void theSameQueriesGiveTheSameAnswers(String engine) {
    assertEquals(
        List.of(
            List.of("Rock", "1297.00"),
            List.of("Latin", "579.00"),
            List.of("Metal", "374.00"),
            List.of("Alternative & Punk", "332.00"),
            List.of("Jazz", "130.00")),
        rows(
            engine,
            "SELECT g.{Name}, count(*) AS n FROM {Genre} g JOIN {Track} t ON t.{GenreId} = g.{GenreId}"
                + " GROUP BY g.{Name} ORDER BY n DESC, g.{Name} LIMIT 5"));
    assertEquals(
        List.of(List.of("2328.60")),
        rows(engine, "SELECT sum({UnitPrice} * {Quantity}) FROM {InvoiceLine}"));
    assertEquals(
        List.of(List.of("USA", "523.06"), List.of("Canada", "303.96"), List.of("France", "195.10")),
        rows(
            engine,
            "SELECT {BillingCountry}, sum({Total}) AS s FROM {Invoice} GROUP BY {BillingCountry} ORDER BY s DESC LIMIT 3"));
    assertEquals(
        List.of(List.of("1.00"), List.of("2.00"), List.of("3.00")),
        rows(
            engine,
            "SELECT r FROM (SELECT row_number() OVER (ORDER BY {Total} DESC, {InvoiceId}) AS r FROM {Invoice}) x WHERE r <= 3 ORDER BY r"));
    assertEquals(
        List.of(List.of("59.00")),
        rows(
            engine,
            "WITH c AS (SELECT {CustomerId} FROM {Invoice} GROUP BY {CustomerId}) SELECT count(*) FROM c"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "duckdb", "h2", "postgres", "pgjdbc"})
  void theGuardRefusesTheSameThings(String engine) {
    assertTrue(refused(engine, spell(engine, "DELETE FROM {Track}")).contains("rejected"));
    assertTrue(
        refused(engine, spell(engine, "SELECT 1; DROP TABLE {Track}"))
            .contains("only one statement"));
    assertTrue(
        refused(
                engine,
                spell(engine, "WITH d AS (DELETE FROM {Track} RETURNING *) SELECT * FROM d"))
            .contains("rejected"));
    // refused everywhere: by the guard, or (SQLite, which has no sequences) by the engine
    assertTrue(refused(engine, "SELECT nextval('s')").contains("nextval"));
    assertEquals(List.of(List.of("3503.00")), rows(engine, "SELECT count(*) FROM {Track}"));
  }
}
