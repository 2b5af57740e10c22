package dev.sonde.dashboard;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Retitles a panel named by id or title. */
final class UpdateChartInDashboardTool extends DashboardTool {
  UpdateChartInDashboardTool(FamilyServices services, Dashboards dashboards) {
    super(
        services,
        dashboards,
        ToolSpec.builder("update_chart_in_dashboard")
            .title("Update chart in dashboard")
            .description("Retitles a dashboard panel named by its id or its (unique) title.")
            .input(
                Schemas.prop(
                    withPanel(withFilename(Schemas.object())),
                    "new_title",
                    Schemas.string("The panel's new title").put("minLength", 1),
                    true))
            .output(Schemas.result("path", "string", "panel", "object"))
            .annotations(new ToolAnnotations(false, false, true, false)));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = ctx.args().getString("filename");
    return dashboards
        .retitle(ws, file, ctx.args().getString("panel"), ctx.args().getString("new_title"))
        .map(panel -> link(Dashboards.filename(file)).put("panel", panel));
  }
}
