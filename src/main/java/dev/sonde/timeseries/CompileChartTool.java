package dev.sonde.timeseries;

import dev.sonde.tools.ChartDocuments;
import dev.sonde.tools.ConnectionArg;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
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
  static final String SPEC_HELP =
      "spec: {kind: metrics|tags|ohlc|geomap, table, tag or tags, timeRange {start, end},"
          + " rollup: sec|min|hour|day|week|month (or \"5min\", \"10s\", \"1분 평균\", \"每小时\";"
          + " null for raw values), rollupN, metrics [{agg: avg|max|min|sum|count|sumsq|raw,"
          + " label}], output {chartType: line|bar, title, subtitle}}. Times: ISO-8601 in the"
          + " user's timezone, epoch ms, now, last (the data's last time), now-6h, last-30m.";

  private final FamilyServices services;
  private final Charts charts;
  private final ToolSpec spec;

  CompileChartTool(FamilyServices services, Charts charts, String name) {
    this.services = services;
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
                    + " is saved in your workspace and re-runs live when opened. "
                    + SPEC_HELP)
            .input(
                TimezoneArg.addTo(
                    ConnectionArg.addTo(
                        Schemas.prop(
                            Schemas.prop(
                                Schemas.object(),
                                "spec",
                                new JsonObject()
                                    .put("type", "object")
                                    .put("description", SPEC_HELP)
                                    .put(
                                        "properties",
                                        new JsonObject()
                                            .put("table", Schemas.string("The tag table"))
                                            .put(
                                                "kind",
                                                Schemas.string("metrics, tags, ohlc or geomap")))
                                    .put(
                                        "required",
                                        new io.vertx.core.json.JsonArray().add("table")),
                                true),
                            "filename",
                            Schemas.string(
                                "Save as TABLE/name.chart.json (ASCII) in your workspace; omit to get"
                                    + " the chart inline"),
                            false))))
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
    JsonObject chartSpec = ctx.args().getJsonObject("spec");
    String filename = ctx.args().getString("filename");
    if (filename != null) {
      ChartDocuments.checkFilename(filename, chartSpec.getString("table", ""));
    }
    ZoneId zone = TimezoneArg.zone(services, ctx);
    Workspace workspace = filename == null ? null : services.workspaces().of(ctx.account());
    return charts
        .compile(ctx.args().getString("connection"), chartSpec, zone, ctx.call())
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
