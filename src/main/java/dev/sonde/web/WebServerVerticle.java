package dev.sonde.web;

import dev.sonde.config.SondeConfig;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The HTTP listener: MCP over Streamable HTTP and WebSocket, the jobs API and the browser UI, every
 * route behind the origin guard. Several instances may share the port; the transports they mount
 * are shared objects, so a session can move between event loops.
 */
public final class WebServerVerticle extends VerticleBase {
  private final SondeConfig config;
  private final OriginGuard guard;
  private final StreamableHttpTransport http;
  private final WebSocketTransport webSocket;
  private final JobsApi jobsApi;
  private final DashboardsApi dashboardsApi;
  private final int port;
  private HttpServer server;

  public WebServerVerticle(
      SondeConfig config,
      int port,
      OriginGuard guard,
      StreamableHttpTransport http,
      WebSocketTransport webSocket,
      JobsApi jobsApi,
      DashboardsApi dashboardsApi) {
    this.config = config;
    this.port = port;
    this.guard = guard;
    this.http = http;
    this.webSocket = webSocket;
    this.jobsApi = jobsApi;
    this.dashboardsApi = dashboardsApi;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    webSocket.mount(router);
    jobsApi.mount(router);
    dashboardsApi.mount(router);
    router
        .route("/*")
        .handler(
            StaticHandler.create("webroot").setCachingEnabled(false).setIndexPage("index.html"));
    HttpServerOptions options =
        new HttpServerOptions()
            .setHost(config.server().host())
            .setMaxWebSocketMessageSize(
                config.server().maxWebSocketMessageBytes() + WebSocketTransport.FRAME_SLACK)
            .setMaxWebSocketFrameSize(
                config.server().maxWebSocketMessageBytes() + WebSocketTransport.FRAME_SLACK)
            .addWebSocketSubProtocol("mcp")
            .setCompressionSupported(false);
    return vertx
        .createHttpServer(options)
        .requestHandler(
            request -> {
              if (!guard.allows(request)) {
                request
                    .response()
                    .setStatusCode(403)
                    .putHeader("Content-Type", "text/plain")
                    .end("forbidden: Host or Origin is not allowed");
              } else if (StreamableHttpTransport.PATH.equals(request.path())) {
                http.handle(request);
              } else {
                router.handle(request);
              }
            })
        .listen(port)
        .onSuccess(s -> server = s);
  }

  public int actualPort() {
    return server.actualPort();
  }
}
