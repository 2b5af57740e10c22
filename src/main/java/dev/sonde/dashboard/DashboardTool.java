package dev.sonde.dashboard;

import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import dev.sonde.workspace.Workspace;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A tool over one dashboard file of the calling account's workspace, run on the family's worker
 * pool: what it does grows with the dashboard's panels and touches the disk.
 */
abstract class DashboardTool implements Tool {
  static final String FILENAME = "The dashboard file in your workspace, e.g. plant/overview.dsh";
  protected final FamilyServices services;
  protected final Dashboards dashboards;
  private final ToolSpec spec;

  DashboardTool(FamilyServices services, Dashboards dashboards, ToolSpec.Builder spec) {
    this.services = services;
    this.dashboards = dashboards;
    this.spec = spec.mode(ExecutionMode.WORKER).build();
  }

  @Override
  public final ToolSpec spec() {
    return spec;
  }

  @Override
  public final Future<ToolResult> call(ToolContext ctx) {
    Workspace ws = services.workspaces().of(ctx.account());
    return answer(ctx, ws).map(ToolResult::structured);
  }

  abstract Future<JsonObject> answer(ToolContext ctx, Workspace ws);

  static final String PANEL =
      "A panel: {\"title\", \"chart_path\": \"EXAMPLE/t.chart.json\"} for a saved chart (tql_path"
          + " too), or inline {\"title\", \"type\": Line|Bar|Scatter|Pie|Gauge|Text|Geomap|Candlestick,"
          + " \"table\", \"tag\" (or \"tags\"), \"rollup\"?, \"text\" for Text}";
  static final ToolAnnotations EDITS = new ToolAnnotations(false, false, false, false);

  /** {@code schema} with time_start, time_end and refresh. */
  static JsonObject withRange(JsonObject schema) {
    return Schemas.prop(
        Schemas.prop(
            Schemas.prop(
                schema,
                "time_start",
                Schemas.string("Start: ISO-8601, epoch ms, now-6h, last-1d; omit to fit the data"),
                false),
            "time_end",
            Schemas.string("End: ISO-8601, epoch ms, now, last"),
            false),
        "refresh",
        Schemas.string("Auto-refresh interval in the viewer: 10s, 1m, 1h, or off"),
        false);
  }

  /** {@code schema} with the panel argument: its id or its title. */
  static JsonObject withPanel(JsonObject schema) {
    return Schemas.prop(
        schema, "panel", Schemas.string("The panel's id, or its title when that is unique"), true);
  }

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

  static JsonObject withFilename(JsonObject schema) {
    return Schemas.prop(schema, "filename", Schemas.string(FILENAME).put("minLength", 1), true);
  }

  /** Where the browser viewer shows the dashboard: a path, and a full URL when the port is set. */
  JsonObject link(String path) {
    return services.files().webLink(path, "/dashboards.html#" + path);
  }
}
