package dev.sonde.web;

import dev.sonde.dashboard.Dashboards;
import dev.sonde.workspace.Workspace;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.ZoneId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard viewer's REST API over the default account's workspace: the dashboards and charts
 * there, one dashboard, and the live data of a panel or a saved chart ({@code start}, {@code end}
 * and {@code tz} query parameters override the saved period and zone).
 */
public final class DashboardsApi {
  private static final Logger LOG = LoggerFactory.getLogger(DashboardsApi.class);
  private static final int DEPTH = 4;
  private static final String REPORT_POLICY =
      "sandbox allow-scripts allow-modals; default-src 'none'; script-src 'unsafe-inline';"
          + " style-src 'unsafe-inline'; img-src data: blob:";

  private final Vertx vertx;
  private final Workspaces workspaces;
  private final Dashboards dashboards;
  private final String account;
  private final String defaultZone;

  public DashboardsApi(
      Vertx vertx,
      Workspaces workspaces,
      Dashboards dashboards,
      String account,
      String defaultZone) {
    this.vertx = vertx;
    this.workspaces = workspaces;
    this.dashboards = dashboards;
    this.account = account;
    this.defaultZone = defaultZone;
  }

  void mount(Router router) {
    router.get("/api/dashboards").handler(this::list);
    router
        .getWithRegex("/api/dashboards/(?<path>.+\\.dsh)/panels/(?<id>[^/]+)/data")
        .handler(this::panelData);
    router.getWithRegex("/api/dashboards/(?<path>.+\\.dsh)").handler(this::dashboard);
    router.getWithRegex("/api/charts/(?<path>.+\\.chart\\.json)/data").handler(this::chartData);
    router.getWithRegex("/workspace/(?<path>.+\\.html)").handler(this::report);
  }

  /**
   * A saved HTML report, sandboxed: it runs its own inline script but as an opaque origin, so
   * nothing in it can reach this server's API or cookies.
   */
  private void report(RoutingContext ctx) {
    Workspace ws = workspace();
    String path = ctx.pathParam("path");
    vertx
        .executeBlocking(() -> ws.read(path), false)
        .onComplete(
            ar -> {
              if (ar.succeeded()) {
                ctx.response()
                    .putHeader("Content-Type", "text/html; charset=utf-8")
                    .putHeader("Content-Security-Policy", REPORT_POLICY)
                    .putHeader("X-Content-Type-Options", "nosniff")
                    .end(io.vertx.core.buffer.Buffer.buffer(ar.result()));
              } else {
                fail(ctx, ar.cause());
              }
            });
  }

  private Workspace workspace() {
    return workspaces.of(account);
  }

  private void list(RoutingContext ctx) {
    Workspace ws = workspace();
    reply(
        ctx,
        vertx.executeBlocking(
            () -> {
              JsonArray boards = new JsonArray();
              JsonArray charts = new JsonArray();
              walk(ws, null, 0, boards, charts);
              return new JsonObject().put("dashboards", boards).put("charts", charts);
            },
            false));
  }

  private void walk(Workspace ws, String folder, int depth, JsonArray boards, JsonArray charts)
      throws IOException {
    for (Workspace.Entry e : ws.list(folder)) {
      if (e.folder() && depth < DEPTH) {
        walk(ws, e.path(), depth + 1, boards, charts);
      } else if (e.name().endsWith(".dsh")) {
        boards.add(new JsonObject().put("path", e.path()).put("modified", e.modified().toString()));
      } else if (e.name().endsWith(".chart.json")) {
        charts.add(new JsonObject().put("path", e.path()).put("modified", e.modified().toString()));
      }
    }
  }

  private void dashboard(RoutingContext ctx) {
    reply(ctx, dashboards.read(workspace(), ctx.pathParam("path")));
  }

  private void panelData(RoutingContext ctx) {
    Workspace ws = workspace();
    String id = ctx.pathParam("id");
    reply(
        ctx,
        dashboards
            .read(ws, ctx.pathParam("path"))
            .compose(
                board -> {
                  JsonObject panel =
                      board.getJsonArray("panels").stream()
                          .map(JsonObject.class::cast)
                          .filter(p -> p.getString("id").equals(id))
                          .findFirst()
                          .orElse(null);
                  if (panel == null) {
                    return Future.failedFuture(
                        new dev.sonde.dashboard.DashboardException("no panel " + id));
                  }
                  return dashboards
                      .panelData(
                          ws, panel, range(ctx, board.getJsonObject("timeRange")), zone(ctx, board))
                      .map(data -> data(panel, data));
                }));
  }

  private void chartData(RoutingContext ctx) {
    Workspace ws = workspace();
    String path = ctx.pathParam("path");
    reply(
        ctx,
        dashboards
            .chartFile(ws, path)
            .compose(
                chart -> {
                  JsonObject panel =
                      new JsonObject()
                          .put("id", path)
                          .put("title", path)
                          .put("type", "Chart")
                          .put("source", new JsonObject().put("chart_path", path));
                  return dashboards
                      .panelData(
                          ws,
                          panel,
                          range(ctx, chart.getJsonObject("spec").getJsonObject("timeRange")),
                          zone(ctx, chart))
                      .map(data -> data(panel, data));
                }));
  }

  private static JsonObject data(JsonObject panel, Dashboards.PanelData data) {
    return new JsonObject()
        .put("id", panel.getString("id"))
        .put("type", panel.getString("type"))
        .put("option", data.option())
        .put("series", data.series())
        .put("summary", data.summary())
        .put("notices", data.notices())
        .put("range", data.range());
  }

  /** The time picker's period when it sent one, else the saved one. */
  private static JsonObject range(RoutingContext ctx, JsonObject saved) {
    String start = ctx.request().getParam("start");
    String end = ctx.request().getParam("end");
    if (start == null && end == null) {
      return saved;
    }
    return new JsonObject().put("start", start).put("end", end);
  }

  private ZoneId zone(RoutingContext ctx, JsonObject saved) {
    String tz = ctx.request().getParam("tz");
    String name = tz != null && !tz.isBlank() ? tz : saved.getString("timezone", defaultZone);
    try {
      return ZoneId.of(name);
    } catch (DateTimeException e) {
      throw new dev.sonde.dashboard.DashboardException("unknown timezone '" + name + "'");
    }
  }

  private static void reply(RoutingContext ctx, Future<JsonObject> answer) {
    answer.onComplete(
        ar -> {
          if (ar.succeeded()) {
            json(ctx.response(), 200, ar.result());
          } else {
            fail(ctx, ar.cause());
          }
        });
  }

  /** A caller's error as 404 (nothing there) or 400 with its message; anything else as 500. */
  private static void fail(RoutingContext ctx, Throwable cause) {
    HttpServerResponse response = ctx.response();
    if (Dashboards.callerError(cause)) {
      String message = cause.getMessage();
      json(response, message.startsWith("no ") ? 404 : 400, new JsonObject().put("error", message));
    } else {
      LOG.warn("{} failed", ctx.request().path(), cause);
      json(response, 500, new JsonObject().put("error", "the request could not be answered"));
    }
  }

  private static void json(HttpServerResponse response, int status, JsonObject body) {
    response.setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
  }
}
