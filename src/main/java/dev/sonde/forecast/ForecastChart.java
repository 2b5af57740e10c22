package dev.sonde.forecast;

import dev.sonde.core.Times;
import dev.sonde.tools.ChartDocuments;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A forecast as a saved chart ({@code kind: forecast}): the file keeps the forecast spec, never
 * numbers, so opening it (a dashboard panel, the chart API) refits on the data as it is then. Its
 * series per tag: the history, the forecast, and each band as a lower edge plus a stacked width.
 */
public final class ForecastChart {
  private static final String BAND_COLOR_95 = "rgba(74,120,176,0.15)";
  private static final String BAND_COLOR_80 = "rgba(74,120,176,0.3)";

  private ForecastChart() {}

  /** The file to save: the forecast spec and the drawing, no data. */
  public static JsonObject document(TableForecasts.Outcome outcome) {
    return new JsonObject()
        .put("format", ChartDocuments.FORMAT)
        .put("version", ChartDocuments.VERSION)
        .put("connection", outcome.connection())
        .put("table", outcome.table())
        .put("kind", ChartDocuments.FORECAST_KIND)
        .put(
            "tags",
            new JsonArray(outcome.tags().stream().map(TableForecasts.TagForecast::tag).toList()))
        .put("timezone", outcome.zone().getId())
        .put("spec", outcome.spec().copy())
        .put("option", option(outcome));
  }

  /** The ECharts option template; the series' data comes from {@link #series}. */
  public static JsonObject option(TableForecasts.Outcome outcome) {
    JsonArray series = new JsonArray();
    JsonArray legend = new JsonArray();
    for (TableForecasts.TagForecast tag : outcome.tags()) {
      String name = tag.tag();
      legend.add(name).add(name + " forecast");
      series.add(band(name + " 95% low", name + " 95%", null));
      series.add(band(name + " 95%", name + " 95%", BAND_COLOR_95));
      series.add(band(name + " 80% low", name + " 80%", null));
      series.add(band(name + " 80%", name + " 80%", BAND_COLOR_80));
      series.add(line(name, null));
      series.add(line(name + " forecast", "dashed"));
    }
    return new JsonObject()
        .put(
            "title",
            new JsonObject().put("text", outcome.title()).put("subtext", outcome.subtitle()))
        .put("tooltip", new JsonObject().put("trigger", "axis"))
        .put("legend", new JsonObject().put("data", legend).put("bottom", 0))
        .put(
            "grid",
            new JsonObject().put("top", 70).put("bottom", 50).put("left", 60).put("right", 30))
        .put("xAxis", new JsonObject().put("type", "time"))
        .put("yAxis", new JsonObject().put("type", "value").put("scale", true))
        .put("series", series);
  }

  private static JsonObject line(String name, String lineType) {
    JsonObject s =
        new JsonObject()
            .put("name", name)
            .put("type", "line")
            .put("showSymbol", false)
            .put("data", new JsonArray());
    if (lineType != null) {
      s.put("lineStyle", new JsonObject().put("type", lineType));
    }
    return s;
  }

  /** A band is drawn as its lower edge (invisible) with its width stacked on top and filled. */
  private static JsonObject band(String name, String stack, String fill) {
    JsonObject s =
        new JsonObject()
            .put("name", name)
            .put("type", "line")
            .put("stack", stack)
            .put("showSymbol", false)
            .put("lineStyle", new JsonObject().put("opacity", 0))
            .put("data", new JsonArray());
    if (fill != null) {
      s.put("areaStyle", new JsonObject().put("color", fill)).put("color", fill);
    }
    return s;
  }

  /** The series the option names, as {name, data: [[ms, value]]}. */
  public static JsonArray series(TableForecasts.Outcome outcome) {
    JsonArray out = new JsonArray();
    for (TableForecasts.TagForecast tag : outcome.tags()) {
      Forecaster.Curve c = tag.result().forecast();
      JsonArray history = new JsonArray();
      for (int t = 0; t < tag.values().length; t++) {
        history.add(new JsonArray().add(tag.times()[t]).add(tag.values()[t]));
      }
      JsonArray forecast = new JsonArray();
      JsonArray lo95 = new JsonArray();
      JsonArray width95 = new JsonArray();
      JsonArray lo80 = new JsonArray();
      JsonArray width80 = new JsonArray();
      for (int j = 0; j < c.mean().length; j++) {
        long ms = tag.ahead()[j];
        forecast.add(new JsonArray().add(ms).add(c.mean()[j]));
        lo95.add(new JsonArray().add(ms).add(c.lo95()[j]));
        width95.add(new JsonArray().add(ms).add(c.hi95()[j] - c.lo95()[j]));
        lo80.add(new JsonArray().add(ms).add(c.lo80()[j]));
        width80.add(new JsonArray().add(ms).add(c.hi80()[j] - c.lo80()[j]));
      }
      String name = tag.tag();
      out.add(named(name + " 95% low", lo95));
      out.add(named(name + " 95%", width95));
      out.add(named(name + " 80% low", lo80));
      out.add(named(name + " 80%", width80));
      out.add(named(name, history));
      out.add(named(name + " forecast", forecast));
    }
    return out;
  }

  /** From the first training bucket to the last forecast bucket. */
  public static JsonObject range(TableForecasts.Outcome outcome) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (TableForecasts.TagForecast tag : outcome.tags()) {
      first = Math.min(first, tag.times()[0]);
      last = Math.max(last, tag.ahead()[tag.ahead().length - 1]);
    }
    return Times.range(first, last, outcome.zone());
  }

  private static JsonObject named(String name, JsonArray data) {
    return new JsonObject().put("name", name).put("data", data);
  }
}
