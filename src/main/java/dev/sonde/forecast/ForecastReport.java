package dev.sonde.forecast;

import static dev.sonde.core.HtmlPage.escape;

import dev.sonde.core.HtmlPage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * The forecast's HTML report: per tag, a model dropdown (the combination and every ranked model)
 * over a chart of the history, the chosen forecast with its 80% and 95% bands, and the model's
 * forecast of the last held-out window beside what happened; the leaderboard and the values below.
 */
public final class ForecastReport {
  /** History drawn before the forecast, in horizons: enough to see the backtest and the trend. */
  private static final int HISTORY_HORIZONS = 4;

  private static final int MIN_HISTORY = 60;

  private ForecastReport() {}

  public static String render(TableForecasts.Outcome outcome, Instant generated) {
    DateTimeFormatter format = formatFor(outcome.unit()).withZone(outcome.zone());
    StringBuilder html = new StringBuilder();
    html.append("<header><h1>")
        .append(escape(outcome.title()))
        .append("</h1><p class=\"subtitle\">")
        .append(escape(outcome.subtitle()))
        .append("</p><p class=\"meta\">Table ")
        .append(escape(outcome.table()))
        .append(" · buckets of ")
        .append(escape(outcome.unit()))
        .append(" · ")
        .append(outcome.horizon())
        .append(" ahead · times in ")
        .append(escape(outcome.zone().getId()))
        .append(" · made ")
        .append(
            escape(
                DateTimeFormatter.ISO_OFFSET_DATE_TIME
                    .withZone(outcome.zone())
                    .format(generated.truncatedTo(ChronoUnit.SECONDS))))
        .append(" by Sonde</p></header>\n");
    if (!outcome.notices().isEmpty()) {
      html.append("<ul class=\"notices\">");
      outcome.notices().forEach(n -> html.append("<li>").append(escape(n)).append("</li>"));
      html.append("</ul>\n");
    }
    JsonArray tags = new JsonArray();
    for (int i = 0; i < outcome.tags().size(); i++) {
      TableForecasts.TagForecast tag = outcome.tags().get(i);
      Forecaster.Result r = tag.result();
      html.append("<section class=\"tag\" data-index=\"")
          .append(i)
          .append("\">\n<h2>")
          .append(escape(tag.tag()))
          .append("</h2>\n<label class=\"model\">Model <select data-index=\"")
          .append(i)
          .append("\">");
      if (r.chosen().equals(Forecaster.AUTO)) {
        html.append("<option value=\"auto\" selected>Combination of ")
            .append(escape(String.join(", ", r.members())))
            .append("</option>");
      }
      for (int rank = 0; rank < r.leaderboard().size(); rank++) {
        Forecaster.Score s = r.leaderboard().get(rank);
        html.append("<option value=\"")
            .append(escape(s.method()))
            .append('"')
            .append(s.method().equals(r.chosen()) ? " selected" : "")
            .append('>')
            .append(rank + 1)
            .append(". ")
            .append(escape(s.method()))
            .append(String.format(Locale.ROOT, " — MASE %.3f", s.mase()))
            .append("</option>");
      }
      html.append("</select></label>\n<div class=\"chart\" id=\"chart-")
          .append(i)
          .append("\"></div>\n");
      html.append("<table class=\"leaderboard\"><caption>Backtest over ")
          .append(r.leaderboard().get(0).windows())
          .append(" rolling windows of ")
          .append(outcome.horizon())
          .append(
              " buckets</caption><thead><tr><th>Rank</th><th>Method</th><th>Model</th>"
                  + "<th>MASE</th><th>sMAPE %</th></tr></thead><tbody>");
      for (int rank = 0; rank < r.leaderboard().size(); rank++) {
        Forecaster.Score s = r.leaderboard().get(rank);
        html.append("<tr><td>")
            .append(rank + 1)
            .append("</td><td>")
            .append(escape(s.method()))
            .append("</td><td>")
            .append(escape(s.label()))
            .append(
                String.format(
                    Locale.ROOT, "</td><td>%.3f</td><td>%.2f</td></tr>", s.mase(), s.smape()));
      }
      html.append("</tbody></table>\n<table class=\"values\" id=\"values-")
          .append(i)
          .append(
              "\"><caption></caption><thead><tr><th>Time</th><th>Forecast</th><th>80% low</th>"
                  + "<th>80% high</th><th>95% low</th><th>95% high</th></tr></thead><tbody></tbody></table>\n</section>\n");
      tags.add(tagData(tag, format, outcome.horizon()));
    }
    return new HtmlPage(outcome.title())
        .style("report.css")
        .echarts()
        .html(html.toString())
        .data("report-data", new JsonObject().put("tags", tags))
        .script("forecast.js")
        .render();
  }

  private static JsonObject tagData(
      TableForecasts.TagForecast tag, DateTimeFormatter format, int horizon) {
    Forecaster.Result r = tag.result();
    int shown = Math.min(tag.values().length, Math.max(MIN_HISTORY, HISTORY_HORIZONS * horizon));
    int from = tag.values().length - shown;
    JsonArray labels = new JsonArray();
    JsonArray history = new JsonArray();
    for (int t = from; t < tag.values().length; t++) {
      labels.add(format.format(Instant.ofEpochMilli(tag.times()[t])));
      history.add(tag.values()[t]);
    }
    for (long t : tag.ahead()) {
      labels.add(format.format(Instant.ofEpochMilli(t)));
    }
    JsonObject curves = new JsonObject();
    if (r.chosen().equals(Forecaster.AUTO)) {
      curves.put(
          Forecaster.AUTO, curve(r.forecast(), "Combination of " + String.join(", ", r.members())));
    }
    r.curves().forEach((id, c) -> curves.put(id, curve(c, id)));
    return new JsonObject()
        .put("tag", tag.tag())
        .put("labels", labels)
        .put("history", history)
        .put("backtestStart", Math.max(0, r.backtestStart() - from))
        .put("chosen", r.chosen())
        .put("curves", curves);
  }

  private static JsonObject curve(Forecaster.Curve c, String label) {
    return new JsonObject()
        .put("label", label)
        .put("mean", array(c.mean()))
        .put("lo80", array(c.lo80()))
        .put("hi80", array(c.hi80()))
        .put("lo95", array(c.lo95()))
        .put("hi95", array(c.hi95()))
        .put("backtest", array(c.backtest()));
  }

  private static JsonArray array(double[] values) {
    JsonArray out = new JsonArray();
    for (double v : values) {
      out.add(Double.isFinite(v) ? v : null);
    }
    return out;
  }

  private static DateTimeFormatter formatFor(String unit) {
    String pattern =
        unit.endsWith("month")
            ? "yyyy-MM"
            : unit.endsWith("day") || unit.endsWith("week")
                ? "yyyy-MM-dd"
                : unit.endsWith("sec") ? "MM-dd HH:mm:ss" : "yyyy-MM-dd HH:mm";
    return DateTimeFormatter.ofPattern(pattern, Locale.ROOT);
  }
}
