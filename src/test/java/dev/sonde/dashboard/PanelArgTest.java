package dev.sonde.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.Refusals;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The panel schema admits every panel entry Dashboards reads, and refuses in the validator's words
 * a type the engine does not draw and fields it does not know, in one panel and in a list of them.
 */
class PanelArgTest {
  static final Refusals REFUSALS = Refusals.of("panels", PanelArg.CHART, PanelArg.CHARTS);

  static String refusal(JsonObject panel) {
    return REFUSALS.of(
        new JsonObject().put("chart", panel).put("charts", new JsonArray().add(panel)));
  }

  @Test
  void everyPanelTheEngineReadsIsAdmitted() {
    for (JsonObject panel :
        List.of(
            new JsonObject().put("title", "Saved").put("chart_path", "EXAMPLE/t.chart.json"),
            new JsonObject().put("tql_path", "EXAMPLE/t.chart.json"),
            new JsonObject().put("title", "Notes").put("type", "Text").put("text", "x"),
            new JsonObject()
                .put("type", "Bar")
                .put("table", "DRIVING")
                .put("tag", "rpm")
                .put("rollup", "5min")
                .put("connection", "demo")
                .put("options", new JsonObject().put("smooth", true)),
            new JsonObject()
                .put("type", "Geomap")
                .put("table", "DRIVING")
                .put("tags", new JsonArray().add("lat").add("lon")),
            new JsonObject()
                .put("table", "EXAMPLE")
                .put("tag", new JsonArray().add("temperature").add("humidity"))
                .putNull("rollup")
                .put(
                    "metrics",
                    new JsonArray()
                        .add("max")
                        .add(new JsonObject().put("agg", "min").put("label", "low"))))) {
      assertNull(refusal(panel), panel.encode());
    }
    for (String type : Dashboards.TYPES) {
      assertNull(refusal(new JsonObject().put("type", type).put("text", "x")), type);
    }
  }

  @Test
  void aTypeTheEngineDoesNotDrawIsRefusedWithTheTypesItDraws() {
    String radar = refusal(new JsonObject().put("type", "Radar").put("table", "EXAMPLE"));
    assertTrue(
        radar.contains(
            "field 'chart.type': Instance does not match any of [\"Line\",\"Bar\",\"Scatter\""),
        radar);
    assertTrue(radar.contains("field 'charts.0.type'"), radar);
  }

  @Test
  void aFieldTheEngineWouldIgnoreIsRefusedByName() {
    assertEquals(
        "invalid arguments for panels: field 'chart.chartPath': Property \"chartPath\" does not"
            + " match additional properties schema (rule: additionalProperties); field"
            + " 'charts.0.chartPath': Property \"chartPath\" does not match additional properties"
            + " schema (rule: additionalProperties)",
        refusal(new JsonObject().put("chartPath", "EXAMPLE/t.chart.json")));
  }
}
