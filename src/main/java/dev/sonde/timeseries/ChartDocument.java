package dev.sonde.timeseries;

import dev.sonde.core.CallerException;
import dev.sonde.tools.ChartDocuments;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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
            .put("format", ChartDocuments.FORMAT)
            .put("version", ChartDocuments.VERSION)
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
    return new Charts.Compiled(document, series, ChartDocuments.summary(series, r.zone()));
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
}
