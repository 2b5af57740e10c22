package dev.sonde.timeseries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.Closing;
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
                Map.entry("databases.connections.pg.rollups", "true"),
                Map.entry("timeseries.tables.plant.connection", "pg"),
                Map.entry("timeseries.tables.plant.table", "plant_log"),
                Map.entry("timeseries.tables.plant.tag", "station"),
                Map.entry("timeseries.tables.plant.time", "logged"),
                Map.entry("timeseries.tables.plant.values", "level")));
    tools = ToolCalls.over(sonde.port());
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
        // a vehicle's track, for geomap charts
        for (int i = 0; i < 600; i++) {
          for (String axis : List.of("lat", "lon")) {
            insert.setString(1, axis);
            insert.setTimestamp(2, Timestamp.valueOf(START.plusSeconds(i * 60L)));
            insert.setDouble(3, axis.equals("lat") ? 37.5 + i / 10_000.0 : 127.0 + i / 5_000.0);
            insert.addBatch();
          }
        }
        insert.executeBatch();
      }
      // a long table whose shape is not a tag table's (two text columns): named in the config
      st.execute(
          "CREATE TABLE plant_log (station VARCHAR(20), note VARCHAR(40), logged TIMESTAMP, level"
              + " DOUBLE PRECISION)");
      st.execute(
          "INSERT INTO plant_log VALUES ('north', 'ok', TIMESTAMP '2024-10-28 00:00:00', 1.5),"
              + " ('north', 'ok', TIMESTAMP '2024-10-28 00:30:00', 2.5), ('south', 'ok',"
              + " TIMESTAMP '2024-10-28 00:10:00', 7)");
      c.commit();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.inOrder(sonde, postgres);
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

  @org.junit.jupiter.api.Test
  void aTableNamedInTheConfigIsATagTableWhereItsShapeIsNot() {
    assertEquals("TAG", kindOf("pg", "plant_log"));
    assertEquals(
        "TABLE", kindOf("duck", "plant_log"), "named for pg only; its shape is not a tag table's");
    assertEquals("TAG", kindOf("duck", "readings"), "found by its shape");
    assertEquals(
        new JsonArray().add("north").add("south"),
        tools
            .ok(
                "list_table_tags",
                new JsonObject().put("table_name", "plant_log").put("connection", "pg"))
            .getJsonArray("tags"));
    JsonObject chart =
        tools.ok(
            "compile_chart_from_spec",
            new JsonObject()
                .put("connection", "pg")
                .put(
                    "spec",
                    new JsonObject()
                        .put("table", "plant_log")
                        .put("tag", "north")
                        .put("rollup", "hour")
                        .put("metrics", new JsonArray().add(new JsonObject().put("agg", "avg")))));
    JsonObject north = chart.getJsonObject("summary").getJsonArray("series").getJsonObject(0);
    assertEquals(1, north.getInteger("points"));
    assertEquals(2.0, north.getDouble("last"));
  }

  @org.junit.jupiter.api.Test
  void aGeomapPairsLatitudeAndLongitude() {
    JsonObject spec =
        new JsonObject()
            .put("table", "readings")
            .put("kind", "geomap")
            .put("tags", new JsonArray().add("lat").add("lon"))
            .put("rollup", "10min");
    JsonObject out =
        tools.ok(
            "compile_chart_from_spec", new JsonObject().put("spec", spec).put("connection", "pg"));
    JsonObject option = out.getJsonObject("chart").getJsonObject("option");
    assertEquals("longitude", option.getJsonObject("xAxis").getString("name"));
    assertEquals("scatter", option.getJsonArray("series").getJsonObject(0).getString("type"));
    JsonArray series = out.getJsonObject("summary").getJsonArray("series");
    assertEquals(
        60, series.getJsonObject(0).getInteger("points"), "ten hours of 10-minute buckets");
    assertEquals(37.5, series.getJsonObject(0).getDouble("min"), 0.001);
    assertEquals(127.0, series.getJsonObject(1).getDouble("min"), 0.01);
    assertTrue(
        tools
            .refused(
                "compile_chart_from_spec",
                new JsonObject()
                    .put("spec", spec.copy().put("tags", new JsonArray().add("lat")))
                    .put("connection", "pg"))
            .contains("latitude then longitude"));
  }

  @org.junit.jupiter.api.Test
  void rowsThatArriveReachTheTagListAndTheRollups() throws Exception {
    awaitRollups("pg");
    LocalDateTime hour = START.plusDays(20);
    // a tag the other checks do not draw: two rows in one hour
    insert("('inflow', '" + hour + "', 5), ('inflow', '" + hour.plusSeconds(10) + "', 6)");
    assertTrue(
        tools
            .ok(
                "list_table_tags",
                new JsonObject().put("table_name", "readings").put("connection", "pg"))
            .getJsonArray("tags")
            .contains("inflow"));
    JsonObject first = counts();
    assertTrue(source(first).endsWith("_hour"), source(first));
    assertEquals(List.of(1, 2), pointsAndLast(first));
    // a late row in the same, still open hour, and one in the next hour
    insert(
        "('inflow', '"
            + hour.plusSeconds(20)
            + "', 7), ('inflow', '"
            + hour.plusHours(1)
            + "', 8)");
    JsonObject second = counts();
    assertTrue(source(second).endsWith("_hour"), "read from the refreshed rollup");
    assertEquals(List.of(2, 1), pointsAndLast(second));
    assertEquals(
        3.0,
        second.getJsonObject("summary").getJsonArray("series").getJsonObject(0).getDouble("max"));
  }

  static void insert(String rows) throws Exception {
    try (Connection c = DriverManager.getConnection(postgres.url("readings"));
        Statement st = c.createStatement()) {
      st.execute("INSERT INTO readings VALUES " + rows);
    }
  }

  static JsonObject counts() {
    JsonObject spec =
        new JsonObject()
            .put("table", "readings")
            .put("tag", "inflow")
            .put("rollup", "hour")
            .put("metrics", new JsonArray().add(new JsonObject().put("agg", "count")));
    return tools.ok(
        "compile_chart_from_spec", new JsonObject().put("spec", spec).put("connection", "pg"));
  }

  static List<Integer> pointsAndLast(JsonObject chart) {
    JsonObject s = chart.getJsonObject("summary").getJsonArray("series").getJsonObject(0);
    return List.of(s.getInteger("points"), s.getDouble("last").intValue());
  }

  static String kindOf(String connection, String table) {
    return tools
        .ok("list_tables", new JsonObject().put("connection", connection))
        .getJsonArray("tables")
        .stream()
        .map(JsonObject.class::cast)
        .filter(t -> t.getString("name").endsWith("." + table))
        .findFirst()
        .orElseThrow()
        .getString("kind");
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
