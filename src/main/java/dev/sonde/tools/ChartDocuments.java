package dev.sonde.tools;

import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import dev.sonde.core.Times;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.regex.Pattern;

/**
 * The saved chart document, the contract between the families that write charts (time series,
 * forecasts) and those that show them (dashboards): its format, its file names, and the summary of
 * its series.
 */
public final class ChartDocuments {
  /** The {@code format} of a saved chart document. */
  public static final String FORMAT = "sonde.chart";

  public static final int VERSION = 1;

  /** The {@code kind} of a saved chart document that is a forecast, refitted when shown. */
  public static final String FORECAST_KIND = "forecast";

  private static final Pattern CHART_FILE =
      Pattern.compile("([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)\\.chart\\.json");

  private ChartDocuments() {}

  /** Per series: points, first and last bucket, min, max and last value. */
  public static JsonObject summary(JsonArray series, ZoneId zone) {
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

  /** TABLE/name.chart.json, ASCII, in the folder of the chart's table. */
  public static void checkFilename(String filename, String table) {
    var m = CHART_FILE.matcher(filename);
    if (!m.matches()) {
      throw new CallerException(
          "filename "
              + Quote.of(filename)
              + " must look like TABLE/name.chart.json in ASCII letters, digits, '.', '_' or '-',"
              + " e.g. EXAMPLE/temperature.chart.json");
    }
    String bare = table.contains(".") ? table.substring(table.lastIndexOf('.') + 1) : table;
    if (!m.group(1).equalsIgnoreCase(bare)) {
      throw new CallerException(
          "filename "
              + Quote.of(filename)
              + " must be in the folder of its table: "
              + bare
              + "/"
              + m.group(2)
              + ".chart.json");
    }
  }
}
