package dev.sonde.web;

import dev.sonde.mcp.ClientChannel;
import dev.sonde.mcp.McpException;
import dev.sonde.mcp.McpServer;
import dev.sonde.mcp.Session;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.ext.web.Router;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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
  private final int maxMessageBytes;
  private final long keepAliveMillis;

  /** The origin guard in front of every route has already checked the handshake's Origin. */
  public WebSocketTransport(
      Vertx vertx, McpServer server, int maxMessageBytes, long keepAliveMillis) {
    this.vertx = vertx;
    this.server = server;
    this.maxMessageBytes = maxMessageBytes;
    this.keepAliveMillis = keepAliveMillis;
    server.transportStarted(TRANSPORT);
  }

  void mount(Router router) {
    router
        .route(PATH)
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
                session = server.openSession(TRANSPORT);
              } catch (McpException e) {
                ctx.response().setStatusCode(503).end(e.getMessage());
                return;
              }
              ctx.request()
                  .toWebSocket()
                  .onSuccess(ws -> connected(ws, session))
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

  private void connected(ServerWebSocket ws, Session session) {
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
          server.closeSession(session);
        });
    // a session that ends first (idle expiry) takes its socket with it
    session.onClose(
        () -> {
          if (!ws.isClosed()) {
            ws.close((short) 1001, "the session ended: idle for longer than the server allows");
          }
        });
  }

  /** The text, or null when the bytes are not UTF-8 (replacing them would change the message). */
  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
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
        byte[] bytes = pending.getBytes();
        pending = Buffer.buffer();
        inText = false;
        String text = utf8(bytes);
        if (text == null) {
          ws.close((short) 1007, "the message is not valid UTF-8");
          return;
        }
        onMessage.handle(text);
      }
    }
  }
}
