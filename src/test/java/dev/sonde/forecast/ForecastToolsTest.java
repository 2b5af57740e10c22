package dev.sonde.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** forecast_table on the demo tag tables through MCP. */
class ForecastToolsTest {
  static HttpMcpClient client;
  static ToolCalls tools;

  @BeforeAll
  static void connect() {
    client = new HttpMcpClient(DatabaseSonde.get().port());
    client.initialize("2025-11-25");
    tools = new ToolCalls(client);
  }

  static JsonObject gold(String method) {
    JsonObject spec =
        new JsonObject()
            .put("table", "GOLD")
            .put("tag", "close")
            .put("rollup", "day")
            .put("horizon", 30);
    if (method != null) {
      spec.put("method", method);
    }
    return spec;
  }

  static JsonObject forecast(JsonObject spec) {
    return tools.ok(
        "forecast_table", new JsonObject().put("spec", spec).put("timezone", "Asia/Seoul"));
  }

  @Test
  void goldsCloseIsForecastThirtyDaysAheadWithARankedLeaderboardBandsProgressAndAReport()
      throws Exception {
    JsonObject call =
        new JsonObject()
            .put("name", "forecast_table")
            .put(
                "arguments", new JsonObject().put("spec", gold(null)).put("timezone", "Asia/Seoul"))
            .put("_meta", new JsonObject().put("progressToken", "gold-1"));
    JsonObject answer = client.send(91, "tools/call", call).get(120, TimeUnit.SECONDS);
    JsonObject result = answer.getJsonObject("result");
    assertFalse(result.getBoolean("isError", false), result.encode());
    JsonObject out = result.getJsonObject("structuredContent");
    assertEquals("1 day", out.getString("unit"));
    JsonObject close = out.getJsonArray("forecasts").getJsonObject(0);
    assertEquals("close", close.getString("tag"));
    assertEquals("auto", close.getString("chosen"));
    assertTrue(close.getJsonArray("members").getList().containsAll(List.of("theta", "damped")));
    assertEquals(
        7, close.getInteger("seasonal_period"), "daily buckets are tested for a weekly season");
    JsonArray board = close.getJsonArray("leaderboard");
    assertTrue(board.size() >= 8, board.encode());
    for (int i = 1; i < board.size(); i++) {
      assertTrue(
          board.getJsonObject(i - 1).getDouble("mase") <= board.getJsonObject(i).getDouble("mase"));
    }
    JsonArray values = close.getJsonArray("values");
    assertEquals(30, values.size());
    double last = lastClose();
    JsonObject first = values.getJsonObject(0);
    assertEquals(
        last, first.getDouble("value"), last * 0.05, "the forecast starts near the last close");
    for (Object o : values) {
      JsonObject v = (JsonObject) o;
      assertTrue(
          v.getDouble("lo95") <= v.getDouble("lo80")
              && v.getDouble("lo80") <= v.getDouble("value"));
      assertTrue(
          v.getDouble("value") <= v.getDouble("hi80")
              && v.getDouble("hi80") <= v.getDouble("hi95"));
    }
    // daily buckets continue at local midnight in the user's zone, one day apart
    ZonedDateTime day1 =
        java.time.Instant.ofEpochMilli(first.getLong("time_ms")).atZone(ZoneId.of("Asia/Seoul"));
    ZonedDateTime day2 =
        java.time.Instant.ofEpochMilli(values.getJsonObject(1).getLong("time_ms"))
            .atZone(ZoneId.of("Asia/Seoul"));
    assertEquals(0, day1.getHour());
    assertEquals(day1.toLocalDate().plusDays(1), day2.toLocalDate());
    assertTrue(first.getString("time").endsWith("+09:00"), first.getString("time"));

    List<String> steps =
        client.received().stream()
            .filter(m -> "notifications/progress".equals(m.getString("method")))
            .filter(m -> "gold-1".equals(m.getJsonObject("params").getValue("progressToken")))
            .map(m -> m.getJsonObject("params").getString("message", ""))
            .toList();
    for (String step : List.of("fetch", "backtest", "rank", "fit", "render")) {
      assertTrue(steps.stream().anyMatch(s -> s.contains(step)), step + " not in " + steps);
    }

    JsonObject report = out.getJsonObject("report");
    assertTrue(
        report
            .getString("path")
            .matches("reports/GOLD-forecast-\\d{8}-\\d{6}-\\d{3}-[0-9a-f]{6}\\.html"));
    HttpResponse<String> page = client.get(report.getString("link"));
    assertEquals(200, page.statusCode());
    assertTrue(
        page.headers().firstValue("Content-Security-Policy").orElse("").startsWith("sandbox"));
    assertTrue(page.body().contains("<select data-index=\"0\">"));
    assertFalse(page.body().contains("src=\"http"), "the report loads nothing from the network");
  }

  static double lastClose() {
    JsonArray row =
        tools
            .ok(
                "execute_query",
                new JsonObject()
                    .put("sql", "SELECT arg_max(VALUE, TIME) FROM \"GOLD\" WHERE NAME = 'close'"))
            .getJsonArray("rows")
            .getJsonArray(0);
    return Double.parseDouble(String.valueOf(row.getValue(0)));
  }

  @Test
  void namedMethodsKoreanAliasesAndRanksPickThatSingleModel() {
    JsonObject byRank = forecast(gold("2위")).getJsonArray("forecasts").getJsonObject(0);
    String second = byRank.getJsonArray("leaderboard").getJsonObject(1).getString("method");
    assertEquals(second, byRank.getString("chosen"));
    assertFalse(byRank.containsKey("members"));
    assertEquals(
        second,
        forecast(gold("rank2")).getJsonArray("forecasts").getJsonObject(0).getString("chosen"));
    assertEquals(
        "linear",
        forecast(gold("선형")).getJsonArray("forecasts").getJsonObject(0).getString("chosen"));
    assertEquals(
        "quadratic",
        forecast(gold("2차")).getJsonArray("forecasts").getJsonObject(0).getString("chosen"));
    assertEquals(
        "holtwinters",
        forecast(gold("계절성")).getJsonArray("forecasts").getJsonObject(0).getString("chosen"));
    JsonObject first =
        forecast(gold(null).put("rank", 1)).getJsonArray("forecasts").getJsonObject(0);
    assertEquals(
        first.getJsonArray("leaderboard").getJsonObject(0).getString("method"),
        first.getString("chosen"));
  }

  @Test
  void withoutATagOrHorizonTheTagWithMostDataIsForecastTwentyPercentAhead() {
    JsonObject out = forecast(new JsonObject().put("table", "GOLD").put("rollup", "week"));
    JsonObject one = out.getJsonArray("forecasts").getJsonObject(0);
    int training = one.getInteger("training_points");
    assertEquals(Math.round(training * 0.2), out.getInteger("horizon").longValue());
    assertEquals(out.getInteger("horizon"), one.getJsonArray("values").size());
    assertTrue(
        out.getJsonArray("notices").encode().contains("the tag with the most data"),
        out.getJsonArray("notices").encode());
  }

  @Test
  void aSavedForecastChartRefitsWhenADashboardPanelOrTheChartApiOpensIt() throws Exception {
    String file = "GOLD/close-forecast.chart.json";
    JsonObject out =
        tools.ok(
            "forecast_table",
            new JsonObject().put("spec", gold(null).put("horizon", 14)).put("filename", file));
    assertEquals(file, out.getJsonObject("chart").getString("path"));
    assertEquals("/dashboards.html#local/" + file, out.getJsonObject("chart").getString("link"));
    JsonObject board =
        tools.ok(
            "create_dashboard_with_charts",
            new JsonObject()
                .put("filename", "t/gold-forecast")
                .put("title", "Gold outlook")
                .put("overwrite", true)
                .put(
                    "charts",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("title", "Gold forecast")
                                .put("chart_path", file))));
    JsonObject panel =
        tools
            .ok("preview_dashboard", new JsonObject().put("filename", board.getString("path")))
            .getJsonArray("panels")
            .getJsonObject(0);
    assertFalse(panel.containsKey("error"), panel.encode());
    JsonArray drawn = panel.getJsonArray("series");
    assertTrue(drawn.encode().contains("\"close forecast\""), drawn.encode());
    assertTrue(drawn.getJsonObject(4).getInteger("points") > 14, drawn.encode());
    HttpResponse<String> data = client.get("/api/charts/" + file + "/data");
    assertEquals(200, data.statusCode(), data.body());
    JsonObject body = new JsonObject(data.body());
    JsonObject forecastSeries =
        body.getJsonArray("series").stream()
            .map(JsonObject.class::cast)
            .filter(x -> x.getString("name").equals("close forecast"))
            .findFirst()
            .orElseThrow();
    assertEquals(14, forecastSeries.getJsonArray("data").size());
    assertTrue(body.getJsonObject("option").getJsonArray("series").encode().contains("close 95%"));
    String misplaced =
        tools.refused(
            "forecast_table",
            new JsonObject().put("spec", gold(null)).put("filename", "EXAMPLE/gold.chart.json"));
    assertTrue(misplaced.contains("GOLD/gold.chart.json"), misplaced);
  }

  @Test
  void badRequestsAreRefusedWithWhatToChange() {
    String unknownTag =
        tools.refused(
            "forecast_table", new JsonObject().put("spec", gold(null).put("tag", "clsoe")));
    assertTrue(unknownTag.contains("close"), unknownTag);
    String unknownMethod =
        tools.refused("forecast_table", new JsonObject().put("spec", gold("arima2")));
    assertTrue(unknownMethod.contains("theta"), unknownMethod);
    String noTable =
        tools.refused(
            "forecast_table", new JsonObject().put("spec", new JsonObject().put("tag", "x")));
    assertTrue(noTable.contains("table"), noTable);
    String tooFar =
        tools.refused(
            "forecast_table", new JsonObject().put("spec", gold(null).put("horizon", 5000)));
    assertTrue(tooFar.contains("horizon"), tooFar);
    String rankPast =
        tools.refused("forecast_table", new JsonObject().put("spec", gold(null).put("rank", 40)));
    assertTrue(rankPast.contains("leaderboard"), rankPast);
  }
}
