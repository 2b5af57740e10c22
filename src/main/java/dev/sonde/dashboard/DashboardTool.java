package dev.sonde.dashboard;

import static io.vertx.json.schema.common.dsl.Keywords.minLength;

import dev.sonde.tools.Arg;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A tool over one dashboard file of the calling account's workspace, run on the family's worker
 * pool: what it does grows with the dashboard's panels and touches the disk.
 */
abstract class DashboardTool implements Tool {
  static final Arg<String> FILENAME =
      Arg.string(
              "filename",
              "The dashboard file in your workspace, e.g. plant/overview.dsh",
              minLength(1))
          .required();
  static final Arg<String> PANEL =
      Arg.string("panel", "The panel's id, or its title when that is unique").required();
  static final Arg<String> TIME_START =
      Arg.string("time_start", "Start: ISO-8601, epoch ms, now-6h, last-1d; omit to fit the data");
  static final Arg<String> TIME_END = Arg.string("time_end", "End: ISO-8601, epoch ms, now, last");
  static final Arg<String> REFRESH =
      Arg.string("refresh", "Auto-refresh interval in the viewer: 10s, 1m, 1h, or off");
  static final ToolAnnotations EDITS = new ToolAnnotations(false, false, false, false);

  protected final Dashboards dashboards;
  private final WorkspaceFiles files;
  private final ToolSpec spec;

  DashboardTool(Dashboards dashboards, WorkspaceFiles files, ToolSpec.Builder spec) {
    this.dashboards = dashboards;
    this.files = files;
    this.spec = spec.mode(ExecutionMode.WORKER).build();
  }

  @Override
  public final ToolSpec spec() {
    return spec;
  }

  @Override
  public final Future<ToolResult> call(ToolContext ctx) {
    Workspace ws = files.of(ctx.account());
    return answer(ctx, ws).map(ToolResult::structured);
  }

  abstract Future<JsonObject> answer(ToolContext ctx, Workspace ws);

  /** Title, time range, refresh and each panel's id, title, type, place and points. */
  static JsonObject summary(JsonObject board) {
    JsonArray panels = new JsonArray();
    for (Object o : board.getJsonArray("panels")) {
      JsonObject p = (JsonObject) o;
      JsonObject one =
          new JsonObject()
              .put("id", p.getString("id"))
              .put("title", p.getString("title"))
              .put("type", p.getString("type"))
              .put("grid", p.getJsonObject("grid"));
      if (p.getJsonObject("checked") != null) {
        one.put("points", p.getJsonObject("checked").getInteger("points"));
      }
      panels.add(one);
    }
    JsonObject out =
        new JsonObject()
            .put("title", board.getString("title"))
            .put("timeRange", board.getJsonObject("timeRange"))
            .put("refresh", board.getString("refresh"))
            .put("panels", panels);
    if (board.getString("kept_existing") != null) {
      out.put(
          "note",
          board.getString("kept_existing")
              + " already existed and was kept; pass overwrite: true to replace it");
    }
    return out;
  }

  /**
   * Where the browser viewer shows {@code account}'s dashboard: a path, and a full URL when the
   * port is set.
   */
  JsonObject link(String account, String path) {
    return files.viewerLink(account, path);
  }
}
