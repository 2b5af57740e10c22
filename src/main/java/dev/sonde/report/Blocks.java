package dev.sonde.report;

import static dev.sonde.core.HtmlPage.escape;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/** The pieces templates build reports from: escaped tables, ECharts options, statistics. */
public final class Blocks {
  private Blocks() {}

  /** Six significant digits, plain: enough to read, short to send. */
  public static double round(double v) {
    if (!Double.isFinite(v) || v == 0) {
      return v;
    }
    return new BigDecimal(v).round(new MathContext(6)).doubleValue();
  }

  public static String text(Object v) {
    if (v instanceof Double d) {
      return Double.isFinite(d)
          ? BigDecimal.valueOf(round(d)).stripTrailingZeros().toPlainString()
          : "–";
    }
    return String.valueOf(v);
  }

  /** An HTML table; every cell is escaped. */
  public static String table(List<String> headers, List<List<Object>> rows) {
    StringBuilder html = new StringBuilder("<table><thead><tr>");
    headers.forEach(h -> html.append("<th>").append(escape(h)).append("</th>"));
    html.append("</tr></thead><tbody>");
    for (List<Object> row : rows) {
      html.append("<tr>");
      row.forEach(cell -> html.append("<td>").append(escape(text(cell))).append("</td>"));
      html.append("</tr>");
    }
    return html.append("</tbody></table>").toString();
  }

  public static String paragraph(String text) {
    return "<p>" + escape(text) + "</p>";
  }

  /** [[ms, value]] pairs. */
  public static JsonArray points(long[] times, double[] values) {
    JsonArray out = new JsonArray();
    for (int i = 0; i < values.length; i++) {
      out.add(
          new JsonArray().add(times[i]).add(Double.isFinite(values[i]) ? round(values[i]) : null));
    }
    return out;
  }

  public static JsonObject line(String name, JsonArray data) {
    return new JsonObject()
        .put("name", name)
        .put("type", "line")
        .put("showSymbol", false)
        .put("data", data);
  }

  /** A chart's title, axis tooltip and margins, for the caller to add axes and series to. */
  public static JsonObject chart(String title) {
    return new JsonObject()
        .put(
            "title",
            new JsonObject()
                .put("text", title)
                .put("left", "center")
                .put("textStyle", new JsonObject().put("fontSize", 13)))
        .put("tooltip", new JsonObject().put("trigger", "axis"))
        .put(
            "grid",
            new JsonObject().put("left", 64).put("right", 24).put("top", 40).put("bottom", 56));
  }

  /** A chart over time; the report's script formats the axis in the user's zone. */
  public static JsonObject timeChart(String title, List<JsonObject> series, boolean logScale) {
    JsonArray legend = new JsonArray();
    series.forEach(s -> legend.add(s.getString("name")));
    return chart(title)
        .put("legend", new JsonObject().put("data", legend).put("bottom", 0))
        .put("xAxis", new JsonObject().put("type", "time"))
        .put("yAxis", new JsonObject().put("type", logScale ? "log" : "value").put("scale", true))
        .put("series", new JsonArray(series));
  }

  /** A chart over numbers (frequencies, values): x and y named. */
  public static JsonObject xyChart(
      String title, String xName, String yName, List<JsonObject> series, String xType) {
    return chart(title)
        .put(
            "xAxis",
            new JsonObject()
                .put("type", xType)
                .put("name", xName)
                .put("nameLocation", "middle")
                .put("nameGap", 28)
                .put("scale", true))
        .put("yAxis", new JsonObject().put("type", "value").put("name", yName).put("scale", true))
        .put("series", new JsonArray(series));
  }

  /** A histogram of {@code values} in {@code bins} equal bins, as a bar chart. */
  public static JsonObject histogram(String title, double[] values, int bins) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    double width = max > min ? (max - min) / bins : 1;
    int[] counts = new int[bins];
    for (double v : values) {
      counts[Math.min(bins - 1, (int) ((v - min) / width))]++;
    }
    JsonArray categories = new JsonArray();
    JsonArray data = new JsonArray();
    for (int b = 0; b < bins; b++) {
      categories.add(text(min + (b + 0.5) * width));
      data.add(counts[b]);
    }
    return chart(title)
        .put("xAxis", new JsonObject().put("type", "category").put("data", categories))
        .put("yAxis", new JsonObject().put("type", "value").put("name", "count"))
        .put(
            "series",
            new JsonArray()
                .add(new JsonObject().put("type", "bar").put("name", "count").put("data", data)));
  }

  /** Count, mean, spread, quartiles, shape and trend of a series. */
  public static JsonObject statistics(Series s) {
    DescriptiveStatistics d = new DescriptiveStatistics(s.values());
    SimpleRegression trend = new SimpleRegression();
    for (int i = 0; i < s.values().length; i++) {
      trend.addData(s.times()[i] / 86_400_000.0, s.values()[i]);
    }
    return new JsonObject()
        .put("count", d.getN())
        .put("mean", round(d.getMean()))
        .put("std", round(d.getStandardDeviation()))
        .put("min", round(d.getMin()))
        .put("p25", round(d.getPercentile(25)))
        .put("median", round(d.getPercentile(50)))
        .put("p75", round(d.getPercentile(75)))
        .put("max", round(d.getMax()))
        .put("skewness", round(d.getSkewness()))
        .put("excess_kurtosis", round(d.getKurtosis()))
        .put("trend_per_day", round(s.values().length > 2 ? trend.getSlope() : Double.NaN));
  }

  /** A centred moving average over {@code window} points (shorter at the edges). */
  public static double[] movingAverage(double[] v, int window) {
    double[] out = new double[v.length];
    int half = window / 2;
    for (int i = 0; i < v.length; i++) {
      int from = Math.max(0, i - half);
      int to = Math.min(v.length, i + half + 1);
      double sum = 0;
      for (int j = from; j < to; j++) {
        sum += v[j];
      }
      out[i] = sum / (to - from);
    }
    return out;
  }

  static String pct(double fraction) {
    return String.format(Locale.ROOT, "%.2f%%", fraction * 100);
  }
}
