package dev.sonde.support;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** MCP over WebSocket with the JDK client, offering subprotocol {@code mcp}. */
public final class WebSocketMcpClient implements McpClient {
  private final Map<String, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
  private final List<JsonObject> received = Collections.synchronizedList(new ArrayList<>());
  public final CompletableFuture<Integer> closeCode = new CompletableFuture<>();
  private final WebSocket socket;

  public WebSocketMcpClient(int port) {
    this(port, null);
  }

  public WebSocketMcpClient(int port, String origin) {
    this(port, origin, Map.of());
  }

  /** A connection whose handshake carries {@code headers} (an Authorization, say). */
  public WebSocketMcpClient(int port, String origin, Map<String, String> headers) {
    try {
      WebSocket.Builder builder =
          HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("mcp");
      if (origin != null) {
        builder.header("Origin", origin);
      }
      headers.forEach(builder::header);
      socket =
          builder
              .buildAsync(URI.create("ws://127.0.0.1:" + port + "/mcp/ws"), new Listener())
              .get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("WebSocket connect failed: " + e.getMessage(), e);
    }
  }

  public String subprotocol() {
    return socket.getSubprotocol();
  }

  public WebSocket socket() {
    return socket;
  }

  @Override
  public CompletableFuture<JsonObject> send(long id, String method, JsonObject params) {
    CompletableFuture<JsonObject> answer = new CompletableFuture<>();
    pending.put(String.valueOf(id), answer);
    JsonObject message = McpClient.message(id, method, params);
    socket.sendText(message.encode(), true).join();
    return answer;
  }

  @Override
  public void notify(String method, JsonObject params) {
    JsonObject message = McpClient.message(null, method, params);
    socket.sendText(message.encode(), true).join();
  }

  @Override
  public List<JsonObject> received() {
    return received;
  }

  @Override
  public void close() {
    if (!socket.isOutputClosed()) {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye");
    }
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder text = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        JsonObject message = new JsonObject(text.toString());
        text.setLength(0);
        McpClient.route(message, pending, received);
      }
      ws.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
      closeCode.complete(statusCode);
      return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
      closeCode.completeExceptionally(error);
    }
  }
}
