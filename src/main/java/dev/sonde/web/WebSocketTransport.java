package dev.sonde.web;

import dev.sonde.mcp.ClientChannel;
import dev.sonde.mcp.McpException;
import dev.sonde.mcp.McpServer;
import dev.sonde.mcp.Session;
import dev.sonde.mcp.WireJson;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over WebSocket as the official SDK clients frame it: subprotocol {@code mcp} (required), one
 * JSON-RPC message per text frame, the socket is the session. Binary frames close the socket with
 * 1003, text that is not UTF-8 with 1007; when the client stops reading, Sonde stops reading its
 * requests until the socket drains. A ping every keep-alive interval keeps a quiet socket open
 * under the server's idle timeout.
 */
public final class WebSocketTransport {
  public static final String PATH = "/mcp/ws";
  private static final Logger LOG = LoggerFactory.getLogger(WebSocketTransport.class);

  /**
   * Frames beyond the message limit by this much are refused by the codec before Sonde sees them.
   */
  public static final int FRAME_SLACK = 64 * 1024;

  private static final String TRANSPORT = "websocket";
  private final Vertx vertx;
  private final McpServer server;
  private final ConnectionLimits limits;
  private final int maxMessageBytes;
  private final long keepAliveMillis;

  /** The origin guard in front of every route has already checked the handshake's Origin. */
  public WebSocketTransport(
      Vertx vertx,
      McpServer server,
      ConnectionLimits limits,
      int maxMessageBytes,
      long keepAliveMillis) {
    this.vertx = vertx;
    this.server = server;
    this.limits = limits;
    this.maxMessageBytes = maxMessageBytes;
    this.keepAliveMillis = keepAliveMillis;
    server.transportStarted(TRANSPORT);
  }

  /** Mounts the upgrade behind {@code authentication}: a connection acts as who opened it. */
  void mount(Router router, RequestAuthentication authentication) {
    router
        .route(PATH)
        .handler(authentication::route)
        .handler(
            ctx -> {
              if (!offersMcp(ctx.request().getHeader("Sec-WebSocket-Protocol"))) {
                ctx.response()
                    .setStatusCode(400)
                    .end("offer the WebSocket subprotocol mcp (Sec-WebSocket-Protocol: mcp)");
                return;
              }
              Session session;
              try {
                session = server.openSession(TRANSPORT, RequestAuthentication.of(ctx));
              } catch (McpException e) {
                ctx.response().setStatusCode(503).end(e.getMessage());
                return;
              }
              HttpConnection connection = ctx.request().connection();
              ctx.request()
                  .toWebSocket()
                  .onSuccess(ws -> connected(ws, session, connection, authentication))
                  .onFailure(
                      e -> {
                        server.closeSession(session);
                        if (!ctx.response().ended()) {
                          ctx.response().setStatusCode(400).end("expected a WebSocket upgrade");
                        }
                      });
            });
  }

  private static boolean offersMcp(String protocols) {
    if (protocols == null) {
      return false;
    }
    for (String offered : protocols.split(",")) {
      if (offered.trim().equals("mcp")) {
        return true;
      }
    }
    return false;
  }

  private void connected(
      ServerWebSocket ws,
      Session session,
      HttpConnection connection,
      RequestAuthentication authentication) {
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
    MessageAssembler assembler =
        new MessageAssembler(
            ws,
            text -> {
              // a revoked or expired token ends the connection it opened at its next message
              if (authentication.stillSignedIn(session.principal())) {
                server.receive(session, text, channel);
              } else {
                ws.close((short) 1008, "the API token is revoked or expired; sign in again");
              }
            });
    ws.frameHandler(assembler);
    ws.exceptionHandler(e -> LOG.debug("websocket error: {}", e.getMessage()));
    long pings =
        vertx.setPeriodic(
            keepAliveMillis,
            t -> {
              if (!ws.isClosed() && !ws.writeQueueFull()) {
                ws.writePing(Buffer.buffer());
              }
            });
    ws.closeHandler(
        v -> {
          vertx.cancelTimer(pings);
          assembler.drop();
          // an upgraded connection's own close handler never fires: its places are given back here
          limits.closed(connection);
          server.closeSession(session);
        });
    // a session that ends first (idle expiry) takes its socket with it
    session.onClose(
        () -> {
          vertx.cancelTimer(pings);
          if (!ws.isClosed()) {
            ws.close((short) 1001, "the session ended: idle for longer than the server allows");
          }
        });
  }

  /**
   * Joins text frames into messages: a message over the size limit closes with 1009, one that is
   * not UTF-8 with 1007, and one left unfinished past the body deadline, or that would take more
   * buffer than the server has left, with 1008. A message in one frame (the usual case) is never
   * buffered.
   */
  private final class MessageAssembler implements Handler<WebSocketFrame> {
    private final ServerWebSocket ws;
    private final Handler<String> onMessage;
    private Buffer pending = Buffer.buffer();
    private boolean inText;
    private long deadline = -1;

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
      Buffer data = frame.binaryData();
      // a whole message in one frame; a message begun in earlier frames (even empty ones) is
      // finished below, where its deadline is cancelled
      if (frame.isFinal() && !inText && data.length() <= maxMessageBytes) {
        deliver(data.getBytes());
        return;
      }
      inText = true;
      if (pending.length() + data.length() > maxMessageBytes) {
        drop();
        ws.close((short) 1009, "message larger than " + maxMessageBytes + " bytes");
        return;
      }
      if (!limits.reserve(data.length())) {
        drop();
        ws.close((short) 1008, "the server is holding its limit of unfinished messages; retry");
        return;
      }
      if (deadline < 0) {
        deadline =
            vertx.setTimer(
                limits.bodyMillis(),
                t -> {
                  deadline = -1;
                  drop();
                  ws.close((short) 1008, "the message was not finished in time");
                });
      }
      pending.appendBuffer(data);
      if (frame.isFinal()) {
        byte[] bytes = pending.getBytes();
        drop();
        deliver(bytes);
      }
    }

    private void deliver(byte[] bytes) {
      inText = false;
      String text;
      try {
        text = WireJson.utf8(bytes);
      } catch (WireJson.Invalid e) {
        ws.close((short) 1007, "the message is not valid UTF-8");
        return;
      }
      onMessage.handle(text);
    }

    /** Forgets a message in progress and gives its buffer back. */
    void drop() {
      limits.release(pending.length());
      pending = Buffer.buffer();
      inText = false;
      if (deadline >= 0) {
        vertx.cancelTimer(deadline);
        deadline = -1;
      }
    }
  }
}
