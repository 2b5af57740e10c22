package dev.sonde.dashboard;

import static io.vertx.json.schema.common.dsl.Keywords.minLength;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Retitles a panel named by id or title. */
final class UpdateChartInDashboardTool extends DashboardTool {
  private static final Arg<String> NEW_TITLE =
      Arg.string("new_title", "The panel's new title", minLength(1)).required();

  UpdateChartInDashboardTool(Dashboards dashboards, WorkspaceFiles files) {
    super(
        dashboards,
        files,
        ToolSpec.builder("update_chart_in_dashboard")
            .title("Update chart in dashboard")
            .description("Retitles a dashboard panel named by its id or its (unique) title.")
            .input(FILENAME, PANEL, NEW_TITLE)
            .output(Schemas.result("path", "string", "panel", "object"))
            .annotations(new ToolAnnotations(false, false, true, false)));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = ctx.arg(FILENAME);
    return dashboards
        .retitle(ws, file, ctx.arg(PANEL), ctx.arg(NEW_TITLE))
        .map(panel -> link(ctx.account(), Dashboards.filename(file)).put("panel", panel));
  }
}
