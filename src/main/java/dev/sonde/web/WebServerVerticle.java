package dev.sonde.web;

import dev.sonde.config.SondeConfig;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The HTTP listener: MCP over Streamable HTTP and WebSocket, the jobs API and the browser UI, every
 * route behind the origin guard and the connection limits, MCP and the API behind sign-in. Several
 * instances may share the port; the transports they mount are shared objects, so a session can move
 * between event loops.
 */
public final class WebServerVerticle extends VerticleBase {
  private static final CharSequence FRAME_POLICY =
      HttpHeaders.createOptimized("frame-ancestors 'none'");
  private static final CharSequence DENY = HttpHeaders.createOptimized("DENY");
  private static final CharSequence NOSNIFF = HttpHeaders.createOptimized("nosniff");
  private static final CharSequence CSP = HttpHeaders.createOptimized("Content-Security-Policy");
  private static final CharSequence FRAME_OPTIONS = HttpHeaders.createOptimized("X-Frame-Options");
  private static final CharSequence CONTENT_TYPE_OPTIONS =
      HttpHeaders.createOptimized("X-Content-Type-Options");

  private final SondeConfig config;
  private final String bindAddress;
  private final OriginGuard guard;
  private final RequestAuthentication authentication;
  private final ConnectionLimits limits;
  private final StreamableHttpTransport http;
  private final WebSocketTransport webSocket;
  private final JobsApi jobsApi;
  private final DashboardsApi dashboardsApi;
  private final int port;
  private HttpServer server;

  public WebServerVerticle(
      SondeConfig config,
      String bindAddress,
      int port,
      OriginGuard guard,
      RequestAuthentication authentication,
      ConnectionLimits limits,
      StreamableHttpTransport http,
      WebSocketTransport webSocket,
      JobsApi jobsApi,
      DashboardsApi dashboardsApi) {
    this.config = config;
    this.bindAddress = bindAddress;
    this.port = port;
    this.guard = guard;
    this.authentication = authentication;
    this.limits = limits;
    this.http = http;
    this.webSocket = webSocket;
    this.jobsApi = jobsApi;
    this.dashboardsApi = dashboardsApi;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    webSocket.mount(router, authentication);
    authentication.mount(router);
    jobsApi.mount(router);
    dashboardsApi.mount(router);
    router
        .route("/*")
        .handler(
            StaticHandler.create("webroot").setCachingEnabled(false).setIndexPage("index.html"));
    SondeConfig.ServerConfig server = config.server();
    HttpServerOptions options =
        new HttpServerOptions()
            .setHost(bindAddress)
            .setPort(port)
            .setIdleTimeout(server.idleTimeoutSeconds())
            // HTTP/1.1 only: with cleartext HTTP/2 on, a connection is only handed over (and so
            // counted and timed) once its first bytes arrive
            .setHttp2ClearTextEnabled(false)
            .setMaxWebSocketMessageSize(
                server.maxWebSocketMessageBytes() + WebSocketTransport.FRAME_SLACK)
            .setMaxWebSocketFrameSize(
                server.maxWebSocketMessageBytes() + WebSocketTransport.FRAME_SLACK)
            .addWebSocketSubProtocol("mcp")
            .setCompressionSupported(false);
    ConnectionLimits.OnLoop connections = limits.onLoop(vertx);
    return vertx
        .createHttpServer(options)
        .connectionHandler(connections::opened)
        .requestHandler(
            request -> {
              connections.requestArrived(request);
              secureHeaders(request);
              if (!guard.allows(request)) {
                request
                    .response()
                    .setStatusCode(403)
                    .putHeader("Content-Type", "text/plain")
                    .end("forbidden: Host, Origin or a cross-site request is not allowed");
              } else if (StreamableHttpTransport.PATH.equals(request.path())) {
                authentication.signIn(request, principal -> http.handle(request, principal));
              } else {
                router.handle(request);
              }
            })
        // listen() without arguments binds the options' host and port; listen(port) would bind
        // every interface
        .listen()
        .onSuccess(s -> this.server = s);
  }

  /** Every answer refuses to be framed or content-sniffed (the job view has a Cancel button). */
  private static void secureHeaders(HttpServerRequest request) {
    MultiMap headers = request.response().headers();
    headers.add(CSP, FRAME_POLICY);
    headers.add(FRAME_OPTIONS, DENY);
    headers.add(CONTENT_TYPE_OPTIONS, NOSNIFF);
  }

  public int actualPort() {
    return server.actualPort();
  }
}
