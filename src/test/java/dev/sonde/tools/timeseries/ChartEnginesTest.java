package dev.sonde.tools.timeseries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The same tag table in DuckDB and in PostgreSQL gives the same chart, from raw rows and from
 * rollups, for sub-day buckets and for days and weeks in zones with a DST change (New York, 3
 * November 2024) and with a 45-minute offset (Kathmandu).
 */
class ChartEnginesTest {
  static final LocalDateTime START = LocalDateTime.of(2024, 10, 28, 0, 0);
  static final int POINTS = 60_000;
  static final int STEP_SECONDS = 20;
  static TestPostgres postgres;
  static InProcessSonde sonde;
  static ToolCalls tools;

  @BeforeAll
  static void start() throws Exception {
    postgres = TestPostgres.start();
    try (Connection admin = DriverManager.getConnection(postgres.url("postgres"));
        Statement st = admin.createStatement()) {
      st.execute("CREATE DATABASE readings");
    }
    String pg = postgres.url("readings");
    Path folder = Files.createTempDirectory("sonde-ts-");
    Path duck = folder.resolve("readings.duckdb");
    Path duckRaw = folder.resolve("readings-raw.duckdb");
    load(DriverManager.getConnection(pg));
    load(DriverManager.getConnection("jdbc:duckdb:" + duck));
    load(DriverManager.getConnection("jdbc:duckdb:" + duckRaw));
    sonde =
        new InProcessSonde(
            Map.ofEntries(
                Map.entry("databases.connections.duckraw.type", "duckdb"),
                Map.entry("databases.connections.duckraw.path", duckRaw.toString()),
                Map.entry("databases.connections.pgraw.type", "postgres"),
                Map.entry("databases.connections.pgraw.url", pg),
                Map.entry("databases.connections.duck.type", "duckdb"),
                Map.entry("databases.connections.duck.path", duck.toString()),
                Map.entry("databases.connections.duck.rollups", "true"),
                Map.entry("databases.connections.pg.type", "postgres"),
                Map.entry("databases.connections.pg.url", pg),
                Map.entry("databases.connections.pg.rollups", "true")));
    HttpMcpClient client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
    tools = new ToolCalls(client);
  }

  /** Two tags every 20 s for about 14 days, with values any engine sums the same way. */
  private static void load(Connection c) throws Exception {
    try (c;
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE readings (sensor VARCHAR(20) NOT NULL, read_at TIMESTAMP NOT NULL, reading DOUBLE PRECISION)");
      c.setAutoCommit(false);
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO readings VALUES (?, ?, ?)")) {
        for (String tag : List.of("flow", "level")) {
          for (int i = 0; i < POINTS; i++) {
            insert.setString(1, tag);
            insert.setTimestamp(2, Timestamp.valueOf(START.plusSeconds((long) i * STEP_SECONDS)));
            insert.setDouble(3, (i % 1000) / 8.0 + (tag.equals("flow") ? 0 : 100));
            insert.addBatch();
            if (i % 5000 == 4999) {
              insert.executeBatch();
            }
          }
          insert.executeBatch();
        }
      }
      c.commit();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (sonde != null) {
      sonde.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  static JsonObject chart(
      String connection, String rollup, String zone, String start, String end, String agg) {
    JsonObject spec =
        new JsonObject()
            .put("table", "readings")
            .put("tags", new JsonArray().add("flow").add("level"))
            .put("kind", "tags")
            .put("rollup", rollup)
            .put("metrics", new JsonArray().add(new JsonObject().put("agg", agg)))
            .put("timeRange", new JsonObject().put("start", start).put("end", end));
    return tools.ok(
        "compile_chart_from_spec",
        new JsonObject().put("spec", spec).put("connection", connection).put("timezone", zone));
  }

  static void awaitRollups(String connection) throws InterruptedException {
    for (int i = 0; i < 600; i++) {
      JsonObject rollups =
          tools
              .ok(
                  "describe_table",
                  new JsonObject()
                      .put("table_name", "readings")
                      .put("profile", true)
                      .put("connection", connection))
              .getJsonObject("profile")
              .getJsonObject("rollups");
      if (rollups.getBoolean("available")) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("rollups of " + connection + " were not built in time");
  }

  static String source(JsonObject chart) {
    return chart.getJsonObject("chart").getJsonObject("plan").getString("source");
  }

  @ParameterizedTest(name = "{0} at {1} in {2}")
  @CsvSource({
    "5min, UTC, 2024-11-01T06:00Z, 2024-11-01T12:00Z, avg",
    "hour, UTC, 2024-10-29T00:00Z, 2024-11-05T00:00Z, max",
    "day, America/New_York, 2024-10-29, 2024-11-08, avg",
    "day, Asia/Kathmandu, 2024-10-29, 2024-11-08, sum",
    "week, America/New_York, 2024-10-28, 2024-11-10, count",
    "10s, UTC, 2024-11-03T05:30Z, 2024-11-03T06:30Z, min"
  })
  void duckDbAndPostgresAgreeFromRawRowsAndFromRollups(
      String rollup, String zone, String start, String end, String agg) throws Exception {
    JsonObject duckRaw = chart("duck", rollup, zone, start, end, agg);
    JsonObject pgRaw = chart("pg", rollup, zone, start, end, agg);
    awaitRollups("duck");
    awaitRollups("pg");
    JsonObject duckRolled = chart("duck", rollup, zone, start, end, agg);
    JsonObject pgRolled = chart("pg", rollup, zone, start, end, agg);
    assertEquals(
        "raw",
        duckRaw
            .getJsonObject("chart")
            .getJsonObject("plan")
            .getString("source")
            .replaceAll("_sonde.*", "raw"));
    assertTrue(
        duckRolled
            .getJsonObject("chart")
            .getJsonObject("plan")
            .getString("source")
            .startsWith("_sonde_rollup_readings_"));
    assertTrue(
        pgRolled
            .getJsonObject("chart")
            .getJsonObject("plan")
            .getString("source")
            .startsWith("_sonde_rollup_readings_"));
    JsonArray expected = duckRaw.getJsonObject("summary").getJsonArray("series");
    for (JsonObject other : List.of(pgRaw, duckRolled, pgRolled)) {
      JsonArray series = other.getJsonObject("summary").getJsonArray("series");
      for (int i = 0; i < expected.size(); i++) {
        JsonObject want = expected.getJsonObject(i);
        JsonObject got = series.getJsonObject(i);
        assertEquals(
            want.getInteger("points"),
            got.getInteger("points"),
            "points " + want.getString("name"));
        assertEquals(want.getString("first_time"), got.getString("first_time"));
        assertEquals(want.getString("last_time"), got.getString("last_time"));
        for (String key : List.of("min", "max", "last")) {
          assertEquals(
              want.getDouble(key),
              got.getDouble(key),
              1e-6 * Math.max(1, Math.abs(want.getDouble(key))),
              key);
        }
      }
    }
    if (rollup.equals("day")) {
      String firstDay = expected.getJsonObject(0).getString("first_time");
      String offset = zone.equals("Asia/Kathmandu") ? "+05:45" : "-04:00";
      assertTrue(
          firstDay.endsWith("00:00:00.000 " + offset), "days start at local midnight: " + firstDay);
    }
  }
}
