package dev.sonde.dashboard;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Removes a panel named by id or title. */
final class RemoveChartFromDashboardTool extends DashboardTool {
  RemoveChartFromDashboardTool(FamilyServices services, Dashboards dashboards) {
    super(
        services,
        dashboards,
        ToolSpec.builder("remove_chart_from_dashboard")
            .title("Remove chart from dashboard")
            .description(
                "Removes a panel, named by its id or its (unique) title, from a dashboard.")
            .input(withPanel(withFilename(Schemas.object())))
            .output(Schemas.result("path", "string", "removed", "object"))
            .annotations(new ToolAnnotations(false, true, true, false)));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = ctx.args().getString("filename");
    return dashboards
        .removePanel(ws, file, ctx.args().getString("panel"))
        .map(panel -> link(Dashboards.filename(file)).put("removed", panel));
  }
}
