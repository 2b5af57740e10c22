package dev.sonde.forecast;

import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static dev.sonde.tools.TimezoneArg.TIMEZONE;

import dev.sonde.core.Call;
import dev.sonde.core.Times;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ChartDocuments;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TaskSupport;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/**
 * forecast_table: a tag's buckets forecast ahead by every model that suits them, ranked by a
 * rolling-origin backtest; by default a combination of the leaders. A job: fetch, backtest, rank,
 * fit and render arrive as progress. The answer holds the leaderboard and the forecast with its
 * bands; the HTML report with every model's curve is saved in the workspace and linked.
 */
final class ForecastTableTool implements Tool {
  private static final Arg<String> FILENAME =
      Arg.string(
          "filename",
          "Also save a live chart as TABLE/name.chart.json (ASCII) in your workspace: it refits"
              + " when opened and can be a dashboard panel");

  private final TableForecasts forecasts;
  private final WorkspaceFiles files;
  private final String configuredZone;
  private final ToolSpec spec;

  ForecastTableTool(TableForecasts forecasts, WorkspaceFiles files, String configuredZone) {
    this.forecasts = forecasts;
    this.files = files;
    this.configuredZone = configuredZone;
    this.spec =
        ToolSpec.builder("forecast_table")
            .title("Forecast a tag table")
            .description(
                "Forecasts a tag (or compares 2-5 tags) of a tag table ahead in rollup buckets."
                    + " Every model that suits the series is backtested on rolling windows and"
                    + " ranked by MASE (sMAPE shown); the answer has the leaderboard, the chosen"
                    + " model or combination, and the forecast with 80% and 95% bands in the"
                    + " user's timezone. An HTML report with every model's curve, bands and"
                    + " backtest is saved in your workspace and linked. Runs as a job: fetch,"
                    + " backtest, rank, fit and render arrive as progress. With filename"
                    + " (TABLE/name.chart.json) a live chart is saved too: it refits when opened"
                    + " and can be a dashboard panel.")
            .input(ForecastSpecArg.SPEC, FILENAME, CONNECTION, TIMEZONE)
            .output(
                Schemas.result(
                    "table",
                    "string",
                    "unit",
                    "string",
                    "horizon",
                    "integer",
                    "forecasts",
                    "array",
                    "notices",
                    "array",
                    "report",
                    "object"))
            .annotations(new ToolAnnotations(false, false, true, false))
            .mode(ExecutionMode.JOB)
            .tasks(TaskSupport.OPTIONAL)
            .build();
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    JsonObject request = ctx.arg(ForecastSpecArg.SPEC);
    String filename = ctx.arg(FILENAME);
    ZoneId zone = TimezoneArg.zone(ctx.arg(TIMEZONE), configuredZone);
    if (filename != null) {
      ChartDocuments.checkFilename(filename, request.getString("table", ""));
    }
    Call call = ctx.call();
    return forecasts
        .forecast(ctx.arg(CONNECTION), request, zone, call)
        .compose(outcome -> call.blocking(() -> saved(ctx, outcome, zone, filename)));
  }

  /** The report (and the live chart when asked) saved, and the answer that links them. */
  private ToolResult saved(
      ToolContext ctx, TableForecasts.Outcome outcome, ZoneId zone, String filename) {
    Instant now = Instant.now();
    ctx.call().step("render", "writing the HTML report");
    String path =
        files.saveNewReport(
            ctx.account(),
            List.of(outcome.table(), "forecast"),
            now,
            zone,
            ForecastReport.render(outcome, now));
    JsonObject answer = answer(outcome, files.fileLink(ctx.account(), path));
    if (filename != null) {
      files.saveText(ctx.account(), filename, ForecastChart.document(outcome).encodePrettily());
      answer.put("chart", files.viewerLink(ctx.account(), filename));
    }
    return ToolResult.structured(answer);
  }

  private static JsonObject answer(TableForecasts.Outcome outcome, JsonObject report) {
    JsonArray tags = new JsonArray();
    for (TableForecasts.TagForecast tag : outcome.tags()) {
      Forecaster.Result r = tag.result();
      JsonArray leaderboard = new JsonArray();
      for (int i = 0; i < r.leaderboard().size(); i++) {
        Forecaster.Score s = r.leaderboard().get(i);
        leaderboard.add(
            new JsonObject()
                .put("rank", i + 1)
                .put("method", s.method())
                .put("model", s.label())
                .put("mase", round(s.mase()))
                .put("smape", round(s.smape())));
      }
      JsonArray values = new JsonArray();
      Forecaster.Curve c = r.forecast();
      for (int j = 0; j < c.mean().length; j++) {
        values.add(
            new JsonObject()
                .put("time", Times.readable(tag.ahead()[j], outcome.zone()))
                .put("time_ms", tag.ahead()[j])
                .put("value", round(c.mean()[j]))
                .put("lo80", round(c.lo80()[j]))
                .put("hi80", round(c.hi80()[j]))
                .put("lo95", round(c.lo95()[j]))
                .put("hi95", round(c.hi95()[j])));
      }
      JsonObject one =
          new JsonObject()
              .put("tag", tag.tag())
              .put("training_points", tag.values().length)
              .put(
                  "training_range",
                  Times.range(tag.times()[0], tag.times()[tag.times().length - 1], outcome.zone()))
              .put("seasonal_period", r.period())
              .put("chosen", r.chosen())
              .put("leaderboard", leaderboard)
              .put("values", values);
      if (!r.members().isEmpty()) {
        one.put("members", new JsonArray(r.members()));
      }
      tags.add(one);
    }
    return new JsonObject()
        .put("table", outcome.table())
        .put("unit", outcome.unit())
        .put("horizon", outcome.horizon())
        .put("timezone", outcome.zone().getId())
        .put("forecasts", tags)
        .put("notices", new JsonArray(outcome.notices()))
        .put("report", report);
  }

  /** Six significant digits: enough for any reading, short for the agent. */
  private static double round(double v) {
    if (!Double.isFinite(v) || v == 0) {
      return v;
    }
    return new java.math.BigDecimal(v).round(new java.math.MathContext(6)).doubleValue();
  }
}
