package dev.sonde.timeseries;

import dev.sonde.tools.FamilyAsks;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.stream.Stream;

/** Tag tables: their tags, and charts compiled from small specs into verified queries. */
public final class TimeSeriesFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = FamilyAsks.TIME_SERIES;

  public TimeSeriesFamilyVerticle(FamilyServices services, TagTables tagTables, Charts charts) {
    super(
        FAMILY,
        services,
        Stream.concat(
                Stream.of(
                    new ListTableTagsTool(services.databases(), tagTables),
                    new CompileChartTool(
                        services.workspaces(),
                        services.configuredZone(),
                        charts,
                        "compile_chart_from_spec"),
                    new CompileChartTool(
                        services.workspaces(),
                        services.configuredZone(),
                        charts,
                        "compile_tql_from_spec")),
                TimeSeriesOperations.all(
                    services.databases(), services.configuredZone(), tagTables, charts)
                    .stream())
            .toList());
  }
}
