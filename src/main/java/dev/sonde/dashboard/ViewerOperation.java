package dev.sonde.dashboard;

import dev.sonde.core.Call;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.Viewer;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** One of the dashboard viewer's {@link Viewer} operations over the calling account's workspace. */
final class ViewerOperation extends DashboardTool {
  private interface Answer {
    Future<JsonObject> of(Dashboards dashboards, Workspace ws, JsonObject args, Call call);
  }

  private final Answer answer;

  private ViewerOperation(
      FamilyServices services, Dashboards dashboards, String name, Answer answer) {
    super(
        services,
        dashboards,
        ToolSpec.builder(name)
            .description("The dashboard viewer's " + name)
            .input(Schemas.object())
            .annotations(ToolAnnotations.READ_ONLY)
            .unlisted());
    this.answer = answer;
  }

  static List<ViewerOperation> all(FamilyServices services, Dashboards dashboards) {
    return List.of(
        new ViewerOperation(
            services, dashboards, Viewer.LIST, (d, ws, args, call) -> d.listing(ws)),
        new ViewerOperation(
            services,
            dashboards,
            Viewer.DASHBOARD,
            (d, ws, args, call) -> d.read(ws, args.getString("path"))),
        new ViewerOperation(
            services,
            dashboards,
            Viewer.PANEL_DATA,
            (d, ws, args, call) ->
                d.viewPanel(
                        ws,
                        args.getString("path"),
                        args.getString("id"),
                        args.getString("start"),
                        args.getString("end"),
                        args.getString("tz"),
                        call)
                    .map(data -> json(args.getString("id"), data))),
        new ViewerOperation(
            services,
            dashboards,
            Viewer.CHART_DATA,
            (d, ws, args, call) ->
                d.viewChart(
                        ws,
                        args.getString("path"),
                        args.getString("start"),
                        args.getString("end"),
                        args.getString("tz"),
                        call)
                    .map(data -> json(args.getString("path"), data))));
  }

  private static JsonObject json(String id, Dashboards.PanelData data) {
    return new JsonObject()
        .put("id", id)
        .put("option", data.option())
        .put("series", data.series())
        .put("summary", data.summary())
        .put("notices", data.notices())
        .put("range", data.range());
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    return answer.of(dashboards, ws, ctx.args(), ctx.call());
  }
}
