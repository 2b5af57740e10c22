package dev.sonde.web;

import dev.sonde.mcp.ClientChannel;
import dev.sonde.mcp.JsonRpc;
import dev.sonde.mcp.McpServer;
import dev.sonde.mcp.Session;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over WebSocket as the official SDK clients frame it: subprotocol {@code mcp}, one JSON-RPC
 * message per text frame, the socket is the session. Binary frames close the socket with 1003;
 * when the client stops reading, Sonde stops reading its requests until the socket drains.
 */
public final class WebSocketTransport {
  public static final String PATH = "/mcp/ws";
  private static final Logger LOG = LoggerFactory.getLogger(WebSocketTransport.class);
  private final McpServer server;
  private final OriginGuard guard;

  public WebSocketTransport(McpServer server, OriginGuard guard) {
    this.server = server;
    this.guard = guard;
    server.transportStarted("websocket");
  }

  void mount(Router router) {
    router
        .route(PATH)
        .handler(
            ctx -> {
              if (!guard.allows(ctx.request())) {
                ctx.response().setStatusCode(403).end("forbidden origin or host");
                return;
              }
              ctx.request()
                  .toWebSocket()
                  .onSuccess(this::connected)
                  .onFailure(e -> {
                    if (!ctx.response().ended()) {
                      ctx.response().setStatusCode(400).end("expected a WebSocket upgrade");
                    }
                  });
            });
  }

  private void connected(ServerWebSocket ws) {
    Session session = server.openSession("websocket");
    ClientChannel channel =
        message -> {
          if (ws.isClosed()) {
            return;
          }
          ws.writeTextMessage(message.encode());
          if (ws.writeQueueFull()) {
            ws.pause();
            ws.drainHandler(v -> ws.resume());
          }
        };
    session.standalone(channel);
    ws.textMessageHandler(text -> receive(session, channel, text));
    ws.binaryMessageHandler(b -> ws.close((short) 1003, "binary frames are not supported; send JSON-RPC as text"));
    ws.exceptionHandler(e -> LOG.debug("websocket error: {}", e.getMessage()));
    ws.closeHandler(v -> server.closeSession(session));
  }

  private void receive(Session session, ClientChannel channel, String text) {
    JsonObject message;
    try {
      message = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      channel.send(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "not a JSON object"));
      return;
    }
    server.handle(session, message, channel).onSuccess(response -> {
      if (response != null) {
        channel.send(response);
      }
    });
  }
}
