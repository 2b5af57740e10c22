package dev.sonde.web;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.tools.FamilyAsks;
import dev.sonde.tools.Viewer;
import dev.sonde.workspace.Workspaces;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard viewer's REST API over the signed-in account's workspace: the dashboards and charts
 * there, one dashboard, and the live data of a panel or a saved chart ({@code start}, {@code end}
 * and {@code tz} query parameters override the saved period and zone). Each request is a {@link
 * Viewer} operation asked of the dashboard family over the event bus, with a tool call's deadline
 * and cancel: a browser that goes away stops the panel's statements and fits.
 */
public final class DashboardsApi {
  private static final Logger LOG = LoggerFactory.getLogger(DashboardsApi.class);
  private static final String REPORT_POLICY =
      "sandbox allow-scripts allow-modals; default-src 'none'; script-src 'unsafe-inline';"
          + " style-src 'unsafe-inline'; img-src data: blob:";

  private final FamilyAsks asks;
  private final Workspaces workspaces;
  private final WorkerExecutor files;
  private final long timeoutMillis;

  public DashboardsApi(
      FamilyAsks asks, Workspaces workspaces, WorkerExecutor files, long timeoutMillis) {
    this.asks = asks;
    this.workspaces = workspaces;
    this.files = files;
    this.timeoutMillis = timeoutMillis;
  }

  void mount(Router router) {
    router.get("/api/dashboards").handler(ctx -> reply(ctx, Viewer.LIST, new JsonObject()));
    router
        .getWithRegex("/api/dashboards/(?<path>.+\\.dsh)/panels/(?<id>[^/]+)/data")
        .handler(
            ctx ->
                reply(
                    ctx,
                    Viewer.PANEL_DATA,
                    picker(ctx).put("path", ctx.pathParam("path")).put("id", ctx.pathParam("id"))));
    router
        .getWithRegex("/api/dashboards/(?<path>.+\\.dsh)")
        .handler(
            ctx ->
                reply(ctx, Viewer.DASHBOARD, new JsonObject().put("path", ctx.pathParam("path"))));
    router
        .getWithRegex("/api/charts/(?<path>.+\\.chart\\.json)/data")
        .handler(
            ctx -> reply(ctx, Viewer.CHART_DATA, picker(ctx).put("path", ctx.pathParam("path"))));
    router.getWithRegex("/workspace/(?<path>.+\\.html)").handler(this::report);
  }

  /**
   * A saved HTML report, sandboxed: it runs its own inline script but as an opaque origin, so
   * nothing in it can reach this server's API or cookies.
   */
  private void report(RoutingContext ctx) {
    Workspaces.Located file =
        workspaces.locate(RequestAuthentication.of(ctx).account(), ctx.pathParam("path"));
    files
        .executeBlocking(() -> file.workspace().read(file.path()), false)
        .onComplete(
            ar -> {
              if (ar.succeeded()) {
                ctx.response()
                    .putHeader("Content-Type", "text/html; charset=utf-8")
                    .putHeader("Content-Security-Policy", REPORT_POLICY)
                    .putHeader("X-Content-Type-Options", "nosniff")
                    .end(io.vertx.core.buffer.Buffer.buffer(ar.result()));
              } else {
                refused(ctx, ar.cause());
              }
            });
  }

  /** The time picker's period and zone, as sent. */
  private static JsonObject picker(RoutingContext ctx) {
    JsonObject args = new JsonObject();
    for (String name : new String[] {"start", "end", "tz"}) {
      String value = ctx.request().getParam(name);
      if (value != null) {
        args.put(name, value);
      }
    }
    return args;
  }

  /**
   * Asks the dashboard family and answers with what it says. A request whose browser goes away
   * before the answer is cancelled.
   */
  private void reply(RoutingContext ctx, String operation, JsonObject args) {
    Call call =
        new Call(
            operation,
            RequestAuthentication.of(ctx).account(),
            System.currentTimeMillis() + timeoutMillis,
            null,
            Call.Steps.NONE);
    HttpServerResponse response = ctx.response();
    response.closeHandler(
        v -> {
          if (!response.ended()) {
            call.stop("the viewer closed the request");
          }
        });
    asks.ask(Viewer.FAMILY, operation, args, call)
        .onComplete(
            ar -> {
              if (response.closed()) {
                return;
              }
              if (ar.succeeded()) {
                json(response, 200, ar.result());
              } else {
                refused(ctx, ar.cause());
              }
            });
  }

  /** A caller's error as 404 (nothing there) or 400 with its message, anything else as 500. */
  private static void refused(RoutingContext ctx, Throwable failure) {
    if (failure instanceof CallerException refused) {
      String message = refused.getMessage();
      json(
          ctx.response(),
          message.startsWith("no ") ? 404 : 400,
          new JsonObject().put("error", message));
      return;
    }
    LOG.warn("{} failed", ctx.request().path(), failure);
    json(ctx.response(), 500, new JsonObject().put("error", "the request could not be answered"));
  }

  private static void json(HttpServerResponse response, int status, JsonObject body) {
    response.setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
  }
}
