package dev.sonde.timeseries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** compile_chart_from_spec on the demo tag tables through MCP, checked against hand-written SQL. */
class ChartToolsTest {
  static ToolCalls tools;

  @BeforeAll
  static void connect() {
    tools = ToolCalls.over(DatabaseSonde.get().port());
  }

  static JsonObject chart(JsonObject spec) {
    return tools.ok("compile_chart_from_spec", new JsonObject().put("spec", spec));
  }

  static JsonObject temperature() {
    return new JsonObject()
        .put("table", "EXAMPLE")
        .put("tag", "temperature")
        .put("rollup", "1-minute average")
        .put("timeRange", new JsonObject().put("start", "last-6h").put("end", "last"));
  }

  /** Points, min, max and last of the bucket values a hand-written query (bucket, value) gives. */
  static JsonObject handWritten(String sql) {
    JsonArray row =
        tools
            .ok(
                "execute_query",
                new JsonObject()
                    .put(
                        "sql",
                        "SELECT count(*), min(v), max(v), arg_max(v, b) FROM ("
                            + sql
                            + ") q(b, v)"))
            .getJsonArray("rows")
            .getJsonArray(0);
    return new JsonObject()
        .put("points", Integer.parseInt(String.valueOf(row.getValue(0))))
        .put("min", Double.parseDouble(String.valueOf(row.getValue(1))))
        .put("max", Double.parseDouble(String.valueOf(row.getValue(2))))
        .put("last", Double.parseDouble(String.valueOf(row.getValue(3))));
  }

  static void assertSummary(JsonObject expected, JsonObject summary) {
    assertEquals(expected.getInteger("points"), summary.getInteger("points"));
    for (String key : new String[] {"min", "max", "last"}) {
      assertEquals(expected.getDouble(key), summary.getDouble(key), 1e-9, key);
    }
  }

  @Test
  void aOneMinuteAverageMatchesTheHandWrittenQueryFromRawRowsAndFromRollups() throws Exception {
    JsonObject first = chart(temperature());
    JsonObject plan = first.getJsonObject("chart").getJsonObject("plan");
    assertEquals("min", plan.getString("unit"));
    assertTrue(
        first
            .getJsonObject("chart")
            .getJsonObject("option")
            .getJsonObject("title")
            .getString("text")
            .endsWith("· 1 min"));
    long from = plan.getJsonObject("range").getLong("start_ms");
    long until = plan.getJsonObject("range").getLong("end_ms");
    JsonObject expected =
        handWritten(
            "SELECT epoch_ms(time_bucket(INTERVAL 1 MINUTE, TIME)), avg(VALUE) FROM EXAMPLE"
                + " WHERE NAME = 'temperature' AND epoch_ms(TIME) >= "
                + from
                + " AND epoch_ms(TIME) < "
                + until
                + " GROUP BY 1");
    assertTrue(expected.getInteger("points") >= 360, "6 hours of minutes: " + expected);
    assertSummary(expected, first.getJsonObject("summary").getJsonArray("series").getJsonObject(0));

    awaitRollups("EXAMPLE");
    JsonObject rolled =
        tools.ok(
            "compile_chart_from_spec",
            new JsonObject().put("spec", temperature()).put("filename", "EXAMPLE/t1.chart.json"));
    JsonObject rolledPlan = rolled.getJsonObject("chart").getJsonObject("plan");
    assertEquals("_sonde_rollup_EXAMPLE_min", rolledPlan.getString("source"));
    assertEquals(plan.getJsonObject("range"), rolledPlan.getJsonObject("range"));
    assertSummary(
        expected, rolled.getJsonObject("summary").getJsonArray("series").getJsonObject(0));
    assertEquals("EXAMPLE/t1.chart.json", rolled.getString("saved"));
    assertTrue(
        tools
            .ok("list_files", new JsonObject().put("path", "EXAMPLE"))
            .encode()
            .contains("t1.chart.json"));
  }

  @Test
  void anUnknownTagIsRefusedWithTheClosestAndNothingIsSaved() {
    String refused =
        tools.refused(
            "compile_chart_from_spec",
            new JsonObject()
                .put("spec", temperature().put("tag", "temprature"))
                .put("filename", "EXAMPLE/bad.chart.json"));
    assertTrue(
        refused.contains("unknown tag 'temprature'") && refused.contains("temperature"), refused);
    assertFalse(
        tools
            .ok("create_folder", new JsonObject().put("folder_name", "EXAMPLE"))
            .encode()
            .contains("bad"));
    assertFalse(
        tools
            .ok("list_files", new JsonObject().put("path", "EXAMPLE"))
            .encode()
            .contains("bad.chart.json"));
  }

  @Test
  void aMisspelledSpecFieldIsRefusedByNameInsteadOfDrawingTheWholeRange() {
    JsonObject spec = temperature();
    spec.put("timerange", spec.remove("timeRange"));
    String refused = tools.refused("compile_chart_from_spec", new JsonObject().put("spec", spec));
    assertTrue(
        refused.startsWith("invalid arguments for compile_chart_from_spec: field 'spec.timerange'"),
        refused);
  }

  @Test
  void filenamesAreAsciiInTheFolderOfTheirTable() {
    assertTrue(
        tools
            .refused(
                "compile_chart_from_spec",
                new JsonObject().put("spec", temperature()).put("filename", "GOLD/t.chart.json"))
            .contains("EXAMPLE/t.chart.json"));
    assertTrue(
        tools
            .refused(
                "compile_chart_from_spec",
                new JsonObject()
                    .put("spec", temperature())
                    .put("filename", "EXAMPLE/온도.chart.json"))
            .contains("ASCII"));
    tools.ok("create_folder", new JsonObject().put("folder_name", "EXAMPLE/taken.chart.json"));
    String inTheWay =
        tools.refused(
            "compile_chart_from_spec",
            new JsonObject()
                .put("spec", temperature())
                .put("filename", "EXAMPLE/taken.chart.json"));
    assertTrue(inTheWay.contains("is a folder"), inTheWay);
  }

  @Test
  void aUnitAloneCutsThePeriodAndSaysSo() {
    JsonObject c =
        chart(
            new JsonObject()
                .put("table", "EXAMPLE")
                .put("tag", "humidity")
                .put("rollup", "10초 간격"));
    JsonObject plan = c.getJsonObject("chart").getJsonObject("plan");
    assertEquals("sec", plan.getString("unit"));
    assertEquals(10, plan.getInteger("multiple"));
    assertTrue(
        c.getJsonArray("notices").getString(0).contains("period cut to the last 10 hours"),
        c.getJsonArray("notices").encode());
    assertTrue(
        c.getJsonObject("chart")
            .getJsonObject("option")
            .getJsonObject("title")
            .getString("text")
            .endsWith("· 10 sec"));
  }

  @Test
  void candlesticksAndTagComparisonsDraw() {
    JsonObject ohlc =
        chart(
            new JsonObject()
                .put("table", "GOLD")
                .put("kind", "ohlc")
                .put("tag", "close")
                .put("rollup", "week")
                .put("timeRange", new JsonObject().put("start", "last-180d")));
    JsonObject series =
        ohlc.getJsonObject("chart").getJsonObject("option").getJsonArray("series").getJsonObject(0);
    assertEquals("candlestick", series.getString("type"));
    int weeks =
        ohlc.getJsonObject("summary").getJsonArray("series").getJsonObject(0).getInteger("points");
    assertTrue(weeks >= 26 && weeks <= 27, "weeks: " + weeks);
    JsonObject compared =
        chart(
            new JsonObject()
                .put("table", "EXAMPLE")
                .put("tags", new JsonArray().add("temperature").add("humidity"))
                .put("rollup", "시간별"));
    assertEquals(2, compared.getJsonObject("summary").getJsonArray("series").size());
    assertEquals("tags", compared.getJsonObject("chart").getString("kind"));
  }

  @Test
  void theReferenceNameCompilesTheSameChart() {
    JsonObject viaAlias =
        tools.ok("compile_tql_from_spec", new JsonObject().put("spec", temperature()));
    JsonObject direct = chart(temperature());
    // raw rows or rollups may answer either call (they may get ready in between): same drawing
    assertEquals(
        direct.getJsonObject("chart").getJsonObject("plan").getJsonObject("range"),
        viaAlias.getJsonObject("chart").getJsonObject("plan").getJsonObject("range"));
    assertSummary(
        handWrittenOf(direct),
        viaAlias.getJsonObject("summary").getJsonArray("series").getJsonObject(0));
  }

  static JsonObject handWrittenOf(JsonObject chart) {
    JsonObject s = chart.getJsonObject("summary").getJsonArray("series").getJsonObject(0);
    return new JsonObject()
        .put("points", s.getInteger("points"))
        .put("min", s.getDouble("min"))
        .put("max", s.getDouble("max"))
        .put("last", s.getDouble("last"));
  }

  @Test
  void rawValuesAreCappedAndSaySo() {
    JsonObject raw =
        chart(
            new JsonObject()
                .put("table", "VIBRATION")
                .put("tag", "x")
                .put("metrics", new JsonArray().add(new JsonObject().put("agg", "raw"))));
    assertEquals(
        10_001,
        raw.getJsonObject("summary").getJsonArray("series").getJsonObject(0).getInteger("points"));
    assertTrue(raw.getJsonArray("notices").encode().contains("only the first 10000 raw values"));
  }

  static void awaitRollups(String table) throws InterruptedException {
    for (int i = 0; i < 600; i++) {
      JsonObject profile =
          tools
              .ok("describe_table", new JsonObject().put("table_name", table).put("profile", true))
              .getJsonObject("profile");
      if (profile.getJsonObject("rollups").getBoolean("available")) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("rollups of " + table + " were not built within 2 minutes");
  }
}
