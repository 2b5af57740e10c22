package dev.sonde.timeseries;

import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static dev.sonde.tools.TimezoneArg.TIMEZONE;

import dev.sonde.tools.Arg;
import dev.sonde.tools.ChartDocuments;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;

/**
 * A chart spec compiled into a verified query: run once before it is returned or saved, so a chart
 * that fails or draws nothing is never saved. Listed twice: under Sonde's name and under the
 * reference toolset's, {@code compile_tql_from_spec}.
 */
final class CompileChartTool implements Tool {
  private static final Arg<String> FILENAME =
      Arg.string(
          "filename",
          "Save as TABLE/name.chart.json (ASCII) in your workspace; omit to get the chart inline");

  private final Workspaces workspaces;
  private final String configuredZone;
  private final Charts charts;
  private final ToolSpec spec;

  CompileChartTool(Workspaces workspaces, String configuredZone, Charts charts, String name) {
    this.workspaces = workspaces;
    this.configuredZone = configuredZone;
    this.charts = charts;
    this.spec =
        ToolSpec.builder(name)
            .title(
                name.equals("compile_chart_from_spec")
                    ? "Compile chart"
                    : "Compile chart (TQL name)")
            .description(
                "Turns a small chart spec into a query over a tag table that is known to run and"
                    + " to draw something: real column names, checked tags, the period and unit"
                    + " fitted to what can be drawn (each change is a notice, the title carries the"
                    + " unit applied), rollups used where they fit. Returns the chart (SQL, ECharts"
                    + " option, plan) with a data summary; with filename (TABLE/name.chart.json) it"
                    + " is saved in your workspace and re-runs live when opened.")
            .input(ChartSpecArg.SPEC, FILENAME, CONNECTION, TIMEZONE)
            .output(Schemas.result("chart", "object", "summary", "object", "notices", "array"))
            .annotations(new ToolAnnotations(false, false, true, false))
            .build();
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    JsonObject chartSpec = ctx.arg(ChartSpecArg.SPEC);
    String filename = ctx.arg(FILENAME);
    if (filename != null) {
      ChartDocuments.checkFilename(filename, chartSpec.getString("table", ""));
    }
    ZoneId zone = TimezoneArg.zone(ctx.arg(TIMEZONE), configuredZone);
    Workspace workspace = filename == null ? null : workspaces.of(ctx.account());
    return charts
        .compile(ctx.arg(CONNECTION), chartSpec, zone, ctx.call())
        .compose(
            compiled -> {
              JsonObject out =
                  new JsonObject()
                      .put("chart", compiled.document())
                      .put("summary", compiled.summary())
                      .put(
                          "notices",
                          compiled.document().getJsonObject("plan").getJsonArray("notices"));
              if (workspace == null) {
                return Future.succeededFuture(ToolResult.structured(out));
              }
              byte[] bytes = compiled.document().encodePrettily().getBytes(StandardCharsets.UTF_8);
              return ctx.call()
                  .blocking(() -> workspace.write(filename, bytes))
                  .map(path -> ToolResult.structured(out.put("saved", workspace.relative(path))));
            });
  }
}
