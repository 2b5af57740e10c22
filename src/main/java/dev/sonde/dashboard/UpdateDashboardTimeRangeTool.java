package dev.sonde.dashboard;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Sets a dashboard's period and refresh interval. */
final class UpdateDashboardTimeRangeTool extends DashboardTool {
  UpdateDashboardTimeRangeTool(FamilyServices services, Dashboards dashboards) {
    super(
        services,
        dashboards,
        ToolSpec.builder("update_dashboard_time_range")
            .title("Update dashboard time range")
            .description(
                "Sets a dashboard's period (time_start, time_end) and its auto-refresh interval; what is"
                    + " left out stays as it was.")
            .input(withRange(withFilename(Schemas.object())))
            .output(Schemas.result("path", "string", "timeRange", "object"))
            .annotations(new ToolAnnotations(false, false, true, false)));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    JsonObject a = ctx.args();
    return dashboards
        .updateTimeRange(
            ws,
            a.getString("filename"),
            a.getString("time_start"),
            a.getString("time_end"),
            a.getString("refresh"))
        .map(board -> link(Dashboards.filename(a.getString("filename"))).mergeIn(summary(board)));
  }
}
