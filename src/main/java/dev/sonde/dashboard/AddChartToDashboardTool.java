package dev.sonde.dashboard;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Adds one panel to a dashboard, in the first free place of its grid. */
final class AddChartToDashboardTool extends DashboardTool {
  AddChartToDashboardTool(FamilyServices services, Dashboards dashboards) {
    super(
        services,
        dashboards,
        ToolSpec.builder("add_chart_to_dashboard")
            .title("Add chart to dashboard")
            .description(
                "Adds a panel to a dashboard, placed in the first free place of its grid; the panel"
                    + " is run once first. "
                    + PANEL)
            .input(
                TimezoneArg.addTo(
                    Schemas.prop(
                        withFilename(Schemas.object()),
                        "chart",
                        new JsonObject().put("type", "object").put("description", PANEL),
                        true)))
            .output(Schemas.result("path", "string", "panel", "object"))
            .annotations(EDITS));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = ctx.args().getString("filename");
    return dashboards
        .addPanel(
            ws,
            file,
            ctx.args().getJsonObject("chart"),
            null,
            TimezoneArg.zone(services, ctx),
            ctx.call())
        .map(panel -> link(Dashboards.filename(file)).put("panel", panel));
  }
}
