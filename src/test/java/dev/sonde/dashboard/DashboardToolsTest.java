package dev.sonde.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The dashboard tools through MCP on the demo tag tables, and the viewer's REST API. */
class DashboardToolsTest {
  static ToolCalls tools;
  static int port;

  @BeforeAll
  static void connect() {
    port = DatabaseSonde.get().port();
    tools = ToolCalls.over(port);
    tools.ok(
        "compile_chart_from_spec",
        new JsonObject()
            .put(
                "spec",
                new JsonObject().put("table", "GOLD").put("tag", "close").put("rollup", "day"))
            .put("filename", "GOLD/close.chart.json"));
  }

  static JsonArray panels() {
    return new JsonArray()
        .add(new JsonObject().put("title", "Gold close").put("chart_path", "GOLD/close.chart.json"))
        .add(
            new JsonObject()
                .put("title", "Temperature")
                .put("type", "Line")
                .put("table", "EXAMPLE")
                .put("tag", "temperature"))
        .add(
            new JsonObject()
                .put("title", "Humidity now")
                .put("type", "Gauge")
                .put("table", "EXAMPLE")
                .put("tag", "humidity"))
        .add(
            new JsonObject()
                .put("title", "Axes")
                .put("type", "Pie")
                .put("table", "VIBRATION")
                .put("tags", new JsonArray().add("x").add("y").add("z")))
        .add(
            new JsonObject()
                .put("title", "Gold OHLC")
                .put("type", "Candlestick")
                .put("table", "GOLD")
                .put("tag", "close")
                .put("rollup", "week"))
        .add(
            new JsonObject()
                .put("title", "Notes")
                .put("type", "Text")
                .put("text", "Plant overview"));
  }

  static JsonObject create(String file, JsonArray panels, boolean overwrite) {
    return tools.ok(
        "create_dashboard_with_charts",
        new JsonObject()
            .put("filename", file)
            .put("title", "Plant")
            .put("charts", panels)
            .put("refresh", "10s")
            .put("overwrite", overwrite));
  }

  @Test
  void aDashboardOfSavedAndInlinePanelsIsPlacedWithoutOverlapAndFittedToTheData() throws Exception {
    JsonObject made = create("t/plant", panels(), true);
    assertEquals("t/plant.dsh", made.getString("path"));
    assertEquals("/dashboards.html#local/t/plant.dsh", made.getString("link"));
    JsonArray placed = made.getJsonArray("panels");
    assertEquals(6, placed.size());
    List<int[]> boxes = new ArrayList<>();
    for (Object o : placed) {
      JsonObject g = ((JsonObject) o).getJsonObject("grid");
      int[] box = {g.getInteger("x"), g.getInteger("y"), g.getInteger("w"), g.getInteger("h")};
      assertTrue(box[0] + box[2] <= 12, "inside 12 columns");
      for (int[] other : boxes) {
        boolean apart =
            box[0] + box[2] <= other[0]
                || other[0] + other[2] <= box[0]
                || box[1] + box[3] <= other[1]
                || other[1] + other[3] <= box[1];
        assertTrue(apart, "panels overlap: " + placed.encode());
      }
      boxes.add(box);
    }
    JsonObject range = made.getJsonObject("timeRange");
    assertEquals(null, range.getString("start"), "each panel keeps its own fitted period");
    JsonObject fitted = range.getJsonObject("fitted");
    assertTrue(
        fitted.getLong("end_ms") - fitted.getLong("start_ms") > 300L * 86_400_000,
        "the union reaches from a year of gold prices: " + fitted.encode());

    JsonObject preview =
        tools.ok("preview_dashboard", new JsonObject().put("filename", "t/plant.dsh"));
    for (Object o : preview.getJsonArray("panels")) {
      JsonObject p = (JsonObject) o;
      assertFalse(p.containsKey("error"), p.encode());
      if (!p.getString("type").equals("Text")) {
        assertTrue(p.getJsonArray("series").getJsonObject(0).getInteger("points") > 0, p.encode());
      }
    }

    String id = placed.getJsonObject(1).getString("id");
    JsonObject data = get("/api/dashboards/t/plant.dsh/panels/" + id + "/data?tz=Asia/Seoul");
    assertTrue(data.getJsonArray("series").getJsonObject(0).getJsonArray("data").size() > 0);
    assertEquals("Asia/Seoul", data.getJsonObject("range").getString("timezone"));
    JsonObject listed = get("/api/dashboards");
    assertTrue(listed.getJsonArray("dashboards").encode().contains("t/plant.dsh"));
    assertTrue(listed.getJsonArray("charts").encode().contains("GOLD/close.chart.json"));
    assertTrue(get("/api/charts/GOLD/close.chart.json/data").getJsonArray("series").size() == 1);
  }

  @Test
  void anExistingDashboardIsKeptUnlessOverwriteIsAsked() {
    create(
        "t/keep",
        new JsonArray()
            .add(new JsonObject().put("title", "n").put("type", "Text").put("text", "a")),
        true);
    JsonObject second =
        create(
            "t/keep",
            new JsonArray()
                .add(new JsonObject().put("title", "n").put("type", "Text").put("text", "b")),
            false);
    assertNotEquals("t/keep.dsh", second.getString("path"));
    assertTrue(second.getString("note").contains("t/keep.dsh already existed"));
    JsonObject kept =
        tools
            .ok("get_dashboard", new JsonObject().put("filename", "t/keep.dsh"))
            .getJsonObject("dashboard");
    assertEquals(
        "a",
        kept.getJsonArray("panels").getJsonObject(0).getJsonObject("source").getString("text"));
  }

  @Test
  void inlinePanelsMustNameRealTags() {
    String refused =
        tools.refused(
            "create_dashboard_with_charts",
            new JsonObject()
                .put("filename", "t/bad")
                .put(
                    "charts",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("type", "Line")
                                .put("table", "EXAMPLE")
                                .put("tag", "humidty"))));
    assertTrue(refused.contains("unknown tag 'humidty'") && refused.contains("humidity"), refused);
    assertTrue(
        tools
            .refused("get_dashboard", new JsonObject().put("filename", "t/bad"))
            .contains("no file"));
  }

  @Test
  void panelsAreAddedRetitledRemovedAndTheRangeUpdated() {
    create(
        "t/edit",
        new JsonArray()
            .add(new JsonObject().put("title", "Notes").put("type", "Text").put("text", "x")),
        true);
    JsonObject added =
        tools.ok(
            "add_chart_to_dashboard",
            new JsonObject()
                .put("filename", "t/edit.dsh")
                .put(
                    "chart",
                    new JsonObject()
                        .put("title", "Rpm")
                        .put("type", "Bar")
                        .put("table", "DRIVING")
                        .put("tag", "rpm")));
    String id = added.getJsonObject("panel").getString("id");
    assertEquals(
        4,
        added.getJsonObject("panel").getJsonObject("grid").getInteger("x"),
        "beside the 4-wide text panel");
    tools.ok(
        "update_chart_in_dashboard",
        new JsonObject()
            .put("filename", "t/edit.dsh")
            .put("panel", "Rpm")
            .put("new_title", "Engine rpm"));
    JsonObject board =
        tools
            .ok("get_dashboard", new JsonObject().put("filename", "t/edit.dsh"))
            .getJsonObject("dashboard");
    assertEquals("Engine rpm", board.getJsonArray("panels").getJsonObject(1).getString("title"));
    assertTrue(
        tools
            .refused(
                "remove_chart_from_dashboard",
                new JsonObject().put("filename", "t/edit.dsh").put("panel", "nope"))
            .contains("Engine rpm"));
    tools.ok(
        "remove_chart_from_dashboard",
        new JsonObject().put("filename", "t/edit.dsh").put("panel", id));
    JsonObject ranged =
        tools.ok(
            "update_dashboard_time_range",
            new JsonObject()
                .put("filename", "t/edit.dsh")
                .put("time_start", "last-2h")
                .put("refresh", "off"));
    assertEquals("last-2h", ranged.getJsonObject("timeRange").getString("start"));
    assertEquals(1, ranged.getJsonArray("panels").size());
    tools.ok("delete_dashboard", new JsonObject().put("filename", "t/edit.dsh"));
    assertTrue(
        tools
            .refused("get_dashboard", new JsonObject().put("filename", "t/edit.dsh"))
            .contains("no file"));
  }

  static JsonObject get(String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return new JsonObject(response.body());
  }
}
