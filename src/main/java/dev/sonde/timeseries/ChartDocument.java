package dev.sonde.timeseries;

import dev.sonde.core.CallerException;
import dev.sonde.core.Times;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;

/**
 * The chart document of a compiled chart: the spec, the plan, the SQL and the ECharts option
 * template, with a summary of the data it drew.
 */
final class ChartDocument {
  private ChartDocument() {}

  /**
   * The document of {@code r} drawn from {@code series} by {@code sql} under {@code plan}, titled
   * with {@code unitLabel}; a chart that found no data is refused, so it is never saved.
   */
  static Charts.Compiled of(
      ChartRequest r, JsonArray series, String sql, JsonObject plan, String unitLabel) {
    JsonObject range = plan.getJsonObject("range");
    String period = range.getString("start") + " – " + range.getString("end");
    if (ChartSeries.points(series) == 0) {
      throw new CallerException(
          "the chart ran but found no data in " + period + "; widen timeRange or leave it out");
    }
    ChartSpec spec = r.spec();
    JsonObject output = spec.output();
    String title = output.getString("title", defaultTitle(spec)) + " · " + unitLabel;
    String subtitle = output.getString("subtitle", r.table().table().name() + " · " + period);
    JsonObject document =
        new JsonObject()
            .put("format", Charts.FORMAT)
            .put("version", Charts.VERSION)
            .put("connection", r.db().name())
            .put("table", r.table().table().qualified())
            .put("kind", spec.kind().name().toLowerCase(Locale.ROOT))
            .put("tags", new JsonArray(spec.tags()))
            .put("timezone", r.zone().getId())
            .put("spec", spec.json().copy())
            .put("plan", plan)
            .put("sql", sql)
            .put(
                "option",
                EChartsOption.template(
                    spec.kind(),
                    output.getString("chartType", "line"),
                    title,
                    subtitle,
                    series,
                    r.zone()));
    return new Charts.Compiled(document, series, summary(series, r.zone()));
  }

  private static String defaultTitle(ChartSpec spec) {
    List<String> tags = spec.tags();
    return switch (spec.kind()) {
      case METRICS ->
          tags.get(0)
              + " "
              + String.join(", ", spec.metrics().stream().map(ChartSpec.Metric::label).toList());
      case OHLC -> tags.get(0) + " candlesticks";
      case GEOMAP -> "position (" + tags.get(0) + ", " + tags.get(1) + ")";
      case TAGS -> String.join(" vs ", tags) + " (" + spec.metrics().get(0).label() + ")";
    };
  }

  /** Per series: points, first and last bucket, min, max and last value. */
  static JsonObject summary(JsonArray series, ZoneId zone) {
    JsonArray out = new JsonArray();
    for (Object o : series) {
      JsonObject s = (JsonObject) o;
      JsonArray data = s.getJsonArray("data");
      JsonObject one = new JsonObject().put("name", s.getString("name")).put("points", data.size());
      if (!data.isEmpty()) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Object p : data) {
          Double v = ((JsonArray) p).getDouble(1);
          if (v != null) {
            min = Math.min(min, v);
            max = Math.max(max, v);
          }
        }
        JsonArray last = data.getJsonArray(data.size() - 1);
        one.put("first_time", Times.readable(data.getJsonArray(0).getLong(0), zone))
            .put("last_time", Times.readable(last.getLong(0), zone))
            .put("min", min)
            .put("max", max)
            .put("last", last.getValue(1));
      }
      out.add(one);
    }
    return new JsonObject().put("series", out);
  }
}
