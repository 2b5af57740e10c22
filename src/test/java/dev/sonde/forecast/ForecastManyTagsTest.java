package dev.sonde.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.InProcessSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** More than five tags asked: the five with the most data are compared, and the answer says so. */
class ForecastManyTagsTest {
  static InProcessSonde sonde;
  static ToolCalls tools;

  @BeforeAll
  static void start() throws Exception {
    Path file = Files.createTempDirectory("sonde-forecast-").resolve("shop.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE SALES (NAME VARCHAR, DAY TIMESTAMP, AMOUNT DOUBLE)");
      // store k sells for 60 + 10 k days, so later stores have more data
      st.execute(
          "INSERT INTO SALES SELECT 's' || k, TIMESTAMP '2026-01-01' + INTERVAL (d) DAY,"
              + " 100 + k * 10 + d * 0.2 + 15 * sin(d * 2 * pi() / 7) FROM range(1, 8) s(k),"
              + " range(0, 200) t(d) WHERE d < 60 + 10 * k");
      // 800 days: more than the 365 one daily chart draws
      st.execute("CREATE TABLE HISTORY (NAME VARCHAR, DAY TIMESTAMP, AMOUNT DOUBLE)");
      st.execute(
          "INSERT INTO HISTORY SELECT 'kwh', TIMESTAMP '2024-01-01' + INTERVAL (d) DAY,"
              + " 500 + d * 0.1 + 40 * sin(d * 2 * pi() / 7) FROM range(0, 800) t(d)");
    }
    sonde =
        new InProcessSonde(
            Map.of(
                "databases.connections.shop.type",
                "duckdb",
                "databases.connections.shop.path",
                file.toString()));
    tools = ToolCalls.over(sonde.port());
  }

  static JsonObject forecast(JsonObject spec) {
    return tools.ok("forecast_table", new JsonObject().put("connection", "shop").put("spec", spec));
  }

  @AfterAll
  static void stop() {
    sonde.close();
  }

  @Test
  void withoutATimeRangeTheWholeHistoryTrainsNotTheLastYearAChartWouldDraw() {
    JsonObject out =
        forecast(
            new JsonObject()
                .put("table", "HISTORY")
                .put("tag", "kwh")
                .put("rollup", "day")
                .put("horizon", 14));
    JsonObject kwh = out.getJsonArray("forecasts").getJsonObject(0);
    assertEquals(800, kwh.getInteger("training_points"), out.encode());
    assertTrue(
        out.getJsonArray("notices").stream().noneMatch(n -> String.valueOf(n).contains("cut")),
        out.getJsonArray("notices").encode());
  }

  @Test
  void theFiveTagsWithTheMostDataAreComparedWithoutAskingBack() {
    JsonObject out =
        forecast(
            new JsonObject()
                .put("table", "SALES")
                .put("tags", new JsonArray(List.of("s1", "s2", "s3", "s4", "s5", "s6", "s7")))
                .put("rollup", "day")
                .put("horizon", 14));
    List<String> forecast =
        out.getJsonArray("forecasts").stream().map(f -> ((JsonObject) f).getString("tag")).toList();
    assertEquals(List.of("s7", "s6", "s5", "s4", "s3"), forecast);
    assertTrue(
        out.getJsonArray("notices").encode().contains("7 tags were named"),
        out.getJsonArray("notices").encode());
    for (Object o : out.getJsonArray("forecasts")) {
      JsonObject one = (JsonObject) o;
      assertEquals(14, one.getJsonArray("values").size());
      assertEquals(7, one.getInteger("seasonal_period"));
    }
  }

  @Test
  void tagsComparedWithoutAHorizonShareTheFirstTagsTwentyPercent() {
    JsonObject out =
        forecast(
            new JsonObject()
                .put("table", "SALES")
                .put("tags", new JsonArray(List.of("s1", "s7")))
                .put("rollup", "day"));
    JsonObject first = out.getJsonArray("forecasts").getJsonObject(0);
    JsonObject second = out.getJsonArray("forecasts").getJsonObject(1);
    assertEquals(70, first.getInteger("training_points"));
    assertEquals(130, second.getInteger("training_points"));
    assertEquals(14, out.getInteger("horizon"));
    assertEquals(14, first.getJsonArray("values").size());
    assertEquals(14, second.getJsonArray("values").size());
  }
}
