package dev.sonde.dashboard;

import dev.sonde.core.Call;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.Operation;
import dev.sonde.tools.Viewer;
import dev.sonde.workspace.Workspace;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** The dashboard viewer's {@link Viewer} operations over the calling account's workspace. */
final class ViewerOperations {
  private interface Answer {
    Future<JsonObject> of(Dashboards dashboards, Workspace ws, JsonObject args, Call call);
  }

  private ViewerOperations() {}

  /** {@code name} answered on the family's pool: it reads the account's files. */
  private static Operation of(
      Workspaces workspaces, Dashboards dashboards, String name, Answer answer) {
    return Operation.of(
        name,
        ExecutionMode.WORKER,
        ctx -> {
          // a path may name another account's file: it is read there, its panels as the viewer
          JsonObject args = ctx.args();
          if (!(args.getValue("path") instanceof String link)) {
            return answer.of(dashboards, workspaces.of(ctx.account()), args, ctx.call());
          }
          Workspaces.Located file = workspaces.locate(ctx.account(), link);
          Future<JsonObject> answered =
              answer.of(
                  dashboards, file.workspace(), args.copy().put("path", file.path()), ctx.call());
          // another account's file says whose it is, so the viewer can tell it apart
          return file.owner().equals(ctx.account())
              ? answered
              : answered.map(json -> json.copy().put("owner", file.owner()));
        });
  }

  static List<Operation> all(Workspaces workspaces, Dashboards dashboards) {
    return List.of(
        of(workspaces, dashboards, Viewer.LIST, (d, ws, args, call) -> d.listing(ws)),
        of(
            workspaces,
            dashboards,
            Viewer.DASHBOARD,
            (d, ws, args, call) -> d.read(ws, args.getString("path"))),
        of(
            workspaces,
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
        of(
            workspaces,
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
}
