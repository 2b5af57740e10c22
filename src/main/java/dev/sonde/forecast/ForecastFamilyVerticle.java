package dev.sonde.forecast;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.List;

/** Forecasts of tag tables, ranked by backtest, with their HTML reports. */
public final class ForecastFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "forecast";

  public ForecastFamilyVerticle(FamilyServices services, TableForecasts forecasts) {
    super(FAMILY, services, List.of(new ForecastTableTool(services, forecasts)));
  }
}
