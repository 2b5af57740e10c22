package dev.sonde.dashboard;

import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Deletes a dashboard file (its saved charts stay). */
final class DeleteDashboardTool extends DashboardTool {
  DeleteDashboardTool(Dashboards dashboards, WorkspaceFiles files) {
    super(
        dashboards,
        files,
        ToolSpec.builder("delete_dashboard")
            .title("Delete dashboard")
            .description(
                "Deletes a dashboard file; the saved charts it shows stay in the workspace.")
            .input(FILENAME)
            .output(Schemas.result("deleted", "string"))
            .annotations(new ToolAnnotations(false, true, true, false)));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = Dashboards.filename(ctx.arg(FILENAME));
    return dashboards.delete(ws, file).map(v -> new JsonObject().put("deleted", file));
  }
}
