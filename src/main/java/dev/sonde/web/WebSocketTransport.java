package dev.sonde.web;

import dev.sonde.mcp.ClientChannel;
import dev.sonde.mcp.McpServer;
import dev.sonde.mcp.Session;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.ext.web.Router;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over WebSocket as the official SDK clients frame it: subprotocol {@code mcp}, one JSON-RPC
 * message per text frame, the socket is the session. Binary frames close the socket with 1003; when
 * the client stops reading, Sonde stops reading its requests until the socket drains.
 */
public final class WebSocketTransport {
  public static final String PATH = "/mcp/ws";
  private static final Logger LOG = LoggerFactory.getLogger(WebSocketTransport.class);

  /**
   * Frames beyond the message limit by this much are refused by the codec before Sonde sees them.
   */
  public static final int FRAME_SLACK = 64 * 1024;

  private final McpServer server;
  private final int maxMessageBytes;

  /** The origin guard in front of every route has already checked the handshake's Origin. */
  public WebSocketTransport(McpServer server, int maxMessageBytes) {
    this.server = server;
    this.maxMessageBytes = maxMessageBytes;
    server.transportStarted("websocket");
  }

  void mount(Router router) {
    router
        .route(PATH)
        .handler(
            ctx ->
                ctx.request()
                    .toWebSocket()
                    .onSuccess(this::connected)
                    .onFailure(
                        e -> {
                          if (!ctx.response().ended()) {
                            ctx.response().setStatusCode(400).end("expected a WebSocket upgrade");
                          }
                        }));
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
    ws.frameHandler(new MessageAssembler(ws, text -> server.receive(session, text, channel)));
    ws.exceptionHandler(e -> LOG.debug("websocket error: {}", e.getMessage()));
    ws.closeHandler(v -> server.closeSession(session));
  }

  /** Joins text frames into messages, enforcing the size limit with a clean 1009 close. */
  private final class MessageAssembler implements Handler<WebSocketFrame> {
    private final ServerWebSocket ws;
    private final Handler<String> onMessage;
    private Buffer pending = Buffer.buffer();
    private boolean inText;

    MessageAssembler(ServerWebSocket ws, Handler<String> onMessage) {
      this.ws = ws;
      this.onMessage = onMessage;
    }

    @Override
    public void handle(WebSocketFrame frame) {
      if (frame.isBinary() || (frame.isContinuation() && !inText)) {
        ws.close((short) 1003, "binary frames are not supported; send JSON-RPC as text");
        return;
      }
      if (!frame.isText() && !frame.isContinuation()) {
        return;
      }
      inText = true;
      if (pending.length() + frame.binaryData().length() > maxMessageBytes) {
        pending = Buffer.buffer();
        ws.close((short) 1009, "message larger than " + maxMessageBytes + " bytes");
        return;
      }
      pending.appendBuffer(frame.binaryData());
      if (frame.isFinal()) {
        String text = pending.toString(StandardCharsets.UTF_8);
        pending = Buffer.buffer();
        inText = false;
        onMessage.handle(text);
      }
    }
  }
}
