package dev.sonde.dashboard;

import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Sets a dashboard's period and refresh interval. */
final class UpdateDashboardTimeRangeTool extends DashboardTool {
  UpdateDashboardTimeRangeTool(Dashboards dashboards, WorkspaceFiles files) {
    super(
        dashboards,
        files,
        ToolSpec.builder("update_dashboard_time_range")
            .title("Update dashboard time range")
            .description(
                "Sets a dashboard's period (time_start, time_end) and its auto-refresh interval; what is"
                    + " left out stays as it was.")
            .input(FILENAME, TIME_START, TIME_END, REFRESH)
            .output(Schemas.result("path", "string", "timeRange", "object"))
            .annotations(new ToolAnnotations(false, false, true, false)));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = ctx.arg(FILENAME);
    return dashboards
        .updateTimeRange(ws, file, ctx.arg(TIME_START), ctx.arg(TIME_END), ctx.arg(REFRESH))
        .map(board -> link(ctx.account(), Dashboards.filename(file)).mergeIn(summary(board)));
  }
}
