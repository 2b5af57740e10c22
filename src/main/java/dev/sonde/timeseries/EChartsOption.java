package dev.sonde.timeseries;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;

/**
 * The ECharts option of a chart, without its data: series carry names and types; the viewer fills
 * {@code data} from the chart's live query and formats the time axis in {@code sonde.timezone}.
 */
final class EChartsOption {
  private EChartsOption() {}

  static JsonObject template(
      ChartKind kind,
      String chartType,
      String title,
      String subtitle,
      JsonArray series,
      ZoneId zone) {
    String type = "bar".equalsIgnoreCase(chartType) ? "bar" : "line";
    JsonArray seriesOut = new JsonArray();
    JsonArray legend = new JsonArray();
    for (Object o : series) {
      String name = ((JsonObject) o).getString("name");
      legend.add(name);
      JsonObject s = new JsonObject().put("name", name).put("data", new JsonArray());
      switch (kind) {
        case OHLC ->
            s.put("type", "candlestick")
                .put(
                    "encode",
                    new JsonObject()
                        .put("x", 0)
                        .put("y", new JsonArray().add(1).add(2).add(3).add(4)));
        case GEOMAP -> s.put("type", "scatter").put("symbolSize", 6);
        default -> s.put("type", type).put("showSymbol", false);
      }
      seriesOut.add(s);
    }
    JsonObject option =
        new JsonObject()
            .put("title", new JsonObject().put("text", title).put("subtext", subtitle))
            .put(
                "tooltip",
                new JsonObject().put("trigger", kind == ChartKind.GEOMAP ? "item" : "axis"))
            .put("legend", new JsonObject().put("data", legend).put("bottom", 0))
            .put(
                "grid",
                new JsonObject().put("top", 70).put("bottom", 50).put("left", 60).put("right", 30))
            .put("series", seriesOut)
            .put(
                "sonde",
                new JsonObject()
                    .put("timezone", zone.getId())
                    .put("kind", kind.name().toLowerCase(java.util.Locale.ROOT)));
    if (kind == ChartKind.GEOMAP) {
      option
          .put(
              "xAxis",
              new JsonObject().put("type", "value").put("name", "longitude").put("scale", true))
          .put(
              "yAxis",
              new JsonObject().put("type", "value").put("name", "latitude").put("scale", true));
    } else {
      option
          .put("xAxis", new JsonObject().put("type", "time"))
          .put("yAxis", new JsonObject().put("type", "value").put("scale", true));
    }
    return option;
  }
}
