package dev.sonde.forecast;

import dev.sonde.tools.ChartDocuments;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.FamilyAsks;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import dev.sonde.tools.Operation;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.ToolContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** Forecasts of tag tables, ranked by backtest, with their HTML reports. */
public final class ForecastFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = FamilyAsks.FORECAST;

  public ForecastFamilyVerticle(FamilyServices services, TableForecasts forecasts) {
    super(
        FAMILY,
        services,
        List.of(
            new ForecastTableTool(forecasts, services.files(), services.configuredZone()),
            Operation.of(
                FamilyAsks.FORECAST_PANEL,
                ExecutionMode.EVENT_LOOP,
                ctx -> panel(forecasts, services.configuredZone(), ctx))));
  }

  /** A forecast fitted on the data as it is now, drawn as a dashboard panel. */
  private static Future<JsonObject> panel(
      TableForecasts forecasts, String configuredZone, ToolContext ctx) {
    return forecasts
        .forecast(
            ctx.args().getString("connection"),
            ctx.args().getJsonObject("spec", new JsonObject()),
            TimezoneArg.zone(ctx.args().getString("timezone"), configuredZone),
            ctx.call())
        .map(
            outcome -> {
              JsonArray series = ForecastChart.series(outcome);
              return new JsonObject()
                  .put("option", ForecastChart.option(outcome))
                  .put("series", series)
                  .put("summary", ChartDocuments.summary(series, outcome.zone()))
                  .put("notices", new JsonArray(outcome.notices()))
                  .put("range", ForecastChart.range(outcome));
            });
  }
}
