package dev.sonde.timeseries;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.List;

/** Tag tables: their tags, and charts compiled from small specs into verified queries. */
public final class TimeSeriesFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "timeseries";

  public TimeSeriesFamilyVerticle(FamilyServices services, Charts charts) {
    super(
        FAMILY,
        services,
        List.of(
            new ListTableTagsTool(services),
            new CompileChartTool(services, charts, "compile_chart_from_spec"),
            new CompileChartTool(services, charts, "compile_tql_from_spec")));
  }
}
