package dev.sonde.dashboard;

import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static dev.sonde.tools.TimezoneArg.TIMEZONE;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Creates a dashboard of saved or inline charts. */
final class CreateDashboardTool extends DashboardTool {
  private static final Arg<String> TITLE = Arg.string("title", "The dashboard's title");
  private static final Arg<Boolean> OVERWRITE =
      Arg.flag("overwrite", "Replace an existing file").orElse(false);

  private final String configuredZone;

  CreateDashboardTool(Dashboards dashboards, WorkspaceFiles files, String configuredZone) {
    super(
        dashboards,
        files,
        ToolSpec.builder("create_dashboard_with_charts")
            .title("Create dashboard")
            .description(
                "Creates a dashboard (.dsh) in your workspace from saved charts or inline panels;"
                    + " every panel is run once, so inline panels must name real tags. Without a"
                    + " time range it is fitted to the data. An existing file is kept (the new one"
                    + " gets a time suffix) unless overwrite is true. Returns the path and a link"
                    + " to the browser viewer.")
            .input(
                FILENAME,
                TIME_START,
                TIME_END,
                REFRESH,
                TITLE,
                PanelArg.CHARTS,
                OVERWRITE,
                TIMEZONE,
                CONNECTION)
            .output(Schemas.result("path", "string", "link", "string", "panels", "array"))
            .annotations(EDITS));
    this.configuredZone = configuredZone;
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    return dashboards
        .create(
            ws,
            ctx.arg(FILENAME),
            ctx.arg(TITLE),
            ctx.arg(PanelArg.CHARTS),
            ctx.arg(TIME_START),
            ctx.arg(TIME_END),
            ctx.arg(REFRESH),
            ctx.arg(OVERWRITE),
            ctx.arg(CONNECTION),
            TimezoneArg.zone(ctx.arg(TIMEZONE), configuredZone),
            ctx.call())
        .map(board -> link(ctx.account(), board.getString("path")).mergeIn(summary(board)));
  }
}
