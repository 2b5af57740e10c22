package dev.sonde.dashboard;

import static dev.sonde.tools.TimezoneArg.TIMEZONE;

import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Adds one panel to a dashboard, in the first free place of its grid. */
final class AddChartToDashboardTool extends DashboardTool {
  private final String configuredZone;

  AddChartToDashboardTool(Dashboards dashboards, WorkspaceFiles files, String configuredZone) {
    super(
        dashboards,
        files,
        ToolSpec.builder("add_chart_to_dashboard")
            .title("Add chart to dashboard")
            .description(
                "Adds a panel to a dashboard, placed in the first free place of its grid; the panel"
                    + " is run once first.")
            .input(FILENAME, PanelArg.CHART, TIMEZONE)
            .output(Schemas.result("path", "string", "panel", "object"))
            .annotations(EDITS));
    this.configuredZone = configuredZone;
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = ctx.arg(FILENAME);
    return dashboards
        .addPanel(
            ws,
            file,
            ctx.arg(PanelArg.CHART),
            null,
            TimezoneArg.zone(ctx.arg(TIMEZONE), configuredZone),
            ctx.call())
        .map(panel -> link(ctx.account(), Dashboards.filename(file)).put("panel", panel));
  }
}
