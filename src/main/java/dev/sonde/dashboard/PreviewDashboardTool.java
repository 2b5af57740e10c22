package dev.sonde.dashboard;

import static dev.sonde.tools.TimezoneArg.TIMEZONE;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/** The viewer's link and what each panel draws now. */
final class PreviewDashboardTool extends DashboardTool {
  private final String configuredZone;

  PreviewDashboardTool(Dashboards dashboards, WorkspaceFiles files, String configuredZone) {
    super(
        dashboards,
        files,
        ToolSpec.builder("preview_dashboard")
            .title("Preview dashboard")
            .description(
                "The link that opens the dashboard in the browser viewer, and a summary of each"
                    + " panel as it draws now: type, data points per series, time range, notices, or"
                    + " its error.")
            .input(FILENAME, TIMEZONE)
            .output(Schemas.result("path", "string", "link", "string", "panels", "array"))
            .annotations(ToolAnnotations.READ_ONLY));
    this.configuredZone = configuredZone;
  }

  @Override
  Future<JsonObject> answer(ToolContext ctx, Workspace ws) {
    String file = Dashboards.filename(ctx.arg(FILENAME));
    ZoneId zone = TimezoneArg.zone(ctx.arg(TIMEZONE), configuredZone);
    return dashboards
        .read(ws, file)
        .compose(
            board -> {
              List<Future<JsonObject>> panels = new ArrayList<>();
              for (Object o : board.getJsonArray("panels")) {
                panels.add(
                    preview(
                        ws, (JsonObject) o, board.getJsonObject("timeRange"), zone, ctx.call()));
              }
              return Future.join(panels)
                  .transform(
                      done ->
                          Future.succeededFuture(
                              link(ctx.account(), file)
                                  .put("title", board.getString("title"))
                                  .put("timeRange", board.getJsonObject("timeRange"))
                                  .put("refresh", board.getString("refresh"))
                                  .put(
                                      "panels",
                                      new JsonArray(
                                          panels.stream().map(Future::result).toList()))));
            });
  }

  /** One panel's summary; a panel that fails says why instead of failing the preview. */
  private Future<JsonObject> preview(
      Workspace ws, JsonObject panel, JsonObject range, ZoneId zone, Call call) {
    JsonObject head =
        new JsonObject()
            .put("id", panel.getString("id"))
            .put("title", panel.getString("title"))
            .put("type", panel.getString("type"));
    return dashboards
        .panelData(ws, panel, range, zone, call)
        .map(
            data ->
                head.put("series", data.summary().getJsonArray("series"))
                    .put("range", data.range())
                    .put("notices", data.notices()))
        .recover(
            e ->
                Future.succeededFuture(
                    head.put(
                        "error",
                        e instanceof CallerException
                            ? e.getMessage()
                            : "the panel could not be drawn")));
  }
}
