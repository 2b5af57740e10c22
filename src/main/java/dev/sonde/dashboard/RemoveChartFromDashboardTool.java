package dev.sonde.dashboard;

import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Removes a panel named by id or title. */
final class RemoveChartFromDashboardTool extends DashboardTool {
  RemoveChartFromDashboardTool(Dashboards dashboards, WorkspaceFiles files) {
    super(
        dashboards,
        files,
        ToolSpec.builder("remove_chart_from_dashboard")
            .title("Remove chart from dashboard")
            .description(
                "Removes a panel, named by its id or its (unique) title, from a dashboard.")
            .input(FILENAME, PANEL)
            .output(Schemas.result("path", "string", "removed", "object"))
            .annotations(new ToolAnnotations(false, true, true, false)));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = ctx.arg(FILENAME);
    return dashboards
        .removePanel(ws, file, ctx.arg(PANEL))
        .map(panel -> link(ctx.account(), Dashboards.filename(file)).put("removed", panel));
  }
}
