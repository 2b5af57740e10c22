package dev.sonde.timeseries;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A chart's rows read into ECharts series, {name, data: [[ms, value...]]}: one series per tag, one
 * of candles, or one per metric, by the chart's shape.
 */
final class ChartSeries {
  private final ChartKind shape;
  private final List<String> tags;
  private final List<ChartSpec.Metric> metrics;
  private final Map<String, JsonArray> byName = new LinkedHashMap<>();

  private ChartSeries(ChartKind shape, ChartSpec spec) {
    this.shape = shape;
    this.tags = spec.tags();
    this.metrics = spec.metrics();
    if (shape.perTag()) {
      tags.forEach(t -> byName.put(t, new JsonArray()));
    } else if (shape == ChartKind.OHLC) {
      byName.put(tags.get(0), new JsonArray());
    } else {
      metrics.forEach(m -> byName.put(m.label(), new JsonArray()));
    }
  }

  /** Runs {@code sql} for {@code r} and reads its rows as {@code shape} draws them. */
  static Future<JsonArray> read(ChartRequest r, ChartKind shape, String sql) {
    int timeout = r.db().config().queryTimeoutSeconds();
    return r.db().read(c -> new ChartSeries(shape, r.spec()).collect(c, sql, timeout), r.call());
  }

  /** The points of all the series together. */
  static int points(JsonArray series) {
    return series.stream().mapToInt(s -> ((JsonObject) s).getJsonArray("data").size()).sum();
  }

  private JsonArray collect(Connection c, String sql, int timeout) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.setQueryTimeout(timeout);
      try (ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          add(rs);
        }
      }
    }
    JsonArray series = new JsonArray();
    byName.forEach(
        (name, data) -> series.add(new JsonObject().put("name", name).put("data", data)));
    return series;
  }

  private void add(ResultSet rs) throws SQLException {
    long t = rs.getLong(1);
    if (shape.perTag()) {
      byName.get(rs.getString(2)).add(new JsonArray().add(t).add(number(rs, 3)));
    } else if (shape == ChartKind.OHLC) {
      byName
          .get(tags.get(0))
          .add(
              new JsonArray()
                  .add(t)
                  .add(number(rs, 2))
                  .add(number(rs, 3))
                  .add(number(rs, 4))
                  .add(number(rs, 5)));
    } else {
      int i = 2;
      for (ChartSpec.Metric m : metrics) {
        byName.get(m.label()).add(new JsonArray().add(t).add(number(rs, i++)));
      }
    }
  }

  private static Double number(ResultSet rs, int column) throws SQLException {
    double v = rs.getDouble(column);
    return rs.wasNull() || Double.isNaN(v) ? null : v;
  }
}
