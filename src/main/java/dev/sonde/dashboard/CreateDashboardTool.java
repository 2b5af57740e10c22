package dev.sonde.dashboard;

import dev.sonde.tools.ConnectionArg;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Creates a dashboard of saved or inline charts. */
final class CreateDashboardTool extends DashboardTool {
  CreateDashboardTool(FamilyServices services, Dashboards dashboards) {
    super(
        services,
        dashboards,
        ToolSpec.builder("create_dashboard_with_charts")
            .title("Create dashboard")
            .description(
                "Creates a dashboard (.dsh) in your workspace from saved charts or inline panels;"
                    + " every panel is run once, so inline panels must name real tags. Without a"
                    + " time range it is fitted to the data. An existing file is kept (the new one"
                    + " gets a time suffix) unless overwrite is true. Returns the path and a link"
                    + " to the browser viewer. "
                    + PANEL)
            .input(
                ConnectionArg.addTo(
                    TimezoneArg.addTo(
                        Schemas.prop(
                            Schemas.prop(
                                Schemas.prop(
                                    withRange(withFilename(Schemas.object())),
                                    "title",
                                    Schemas.string("The dashboard's title"),
                                    false),
                                "charts",
                                new JsonObject()
                                    .put("type", "array")
                                    .put("description", PANEL)
                                    .put("items", new JsonObject().put("type", "object")),
                                true),
                            "overwrite",
                            new JsonObject()
                                .put("type", "boolean")
                                .put("description", "Replace an existing file"),
                            false))))
            .output(Schemas.result("path", "string", "link", "string", "panels", "array"))
            .annotations(EDITS));
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    JsonObject a = ctx.args();
    return dashboards
        .create(
            ws,
            a.getString("filename"),
            a.getString("title"),
            a.getJsonArray("charts"),
            a.getString("time_start"),
            a.getString("time_end"),
            a.getString("refresh"),
            a.getBoolean("overwrite", false),
            a.getString("connection"),
            TimezoneArg.zone(services, ctx),
            ctx.call())
        .map(board -> link(board.getString("path")).mergeIn(summary(board)));
  }
}
