package dev.sonde.dashboard;

import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** A dashboard as saved: its title, time range, refresh and panels. */
final class GetDashboardTool extends DashboardTool {
  GetDashboardTool(Dashboards dashboards, WorkspaceFiles files) {
    super(
        dashboards,
        files,
        ToolSpec.builder("get_dashboard")
            .title("Get dashboard")
            .description(
                "A dashboard as saved: title, time range, refresh, and its panels with id, type, data"
                    + " source, grid place and options.")
            .input(FILENAME)
            .output(Schemas.result("path", "string", "dashboard", "object"))
            .annotations(ToolAnnotations.READ_ONLY));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = ctx.arg(FILENAME);
    return dashboards
        .read(ws, file)
        .map(board -> link(ctx.account(), Dashboards.filename(file)).put("dashboard", board));
  }
}
