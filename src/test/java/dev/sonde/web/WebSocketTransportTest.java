package dev.sonde.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.InProcessSonde;
import dev.sonde.support.WebSocketMcpClient;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** WebSocket beyond the contract: subprotocol, frames, origin and size limits. */
class WebSocketTransportTest {
  static InProcessSonde sonde;

  @BeforeAll
  static void start() {
    sonde = new InProcessSonde(Map.of("server.maxWebSocketMessageBytes", "4096"));
  }

  @AfterAll
  static void stop() {
    sonde.close();
  }

  @Test
  void theServerEchoesTheMcpSubprotocol() {
    try (WebSocketMcpClient client = new WebSocketMcpClient(sonde.port())) {
      assertEquals("mcp", client.subprotocol());
    }
  }

  @Test
  void requestsBeforeInitializeAreRefused() {
    try (WebSocketMcpClient client = new WebSocketMcpClient(sonde.port())) {
      JsonObject answer = client.request(1, "tools/list", null);
      assertEquals(-32600, answer.getJsonObject("error").getInteger("code"));
      assertEquals(new JsonObject(), client.request(2, "ping", null).getJsonObject("result"));
    }
  }

  @Test
  void aBinaryFrameClosesWith1003() throws Exception {
    WebSocketMcpClient client = new WebSocketMcpClient(sonde.port());
    client.socket().sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).join();
    assertEquals(1003, client.closeCode.get(5, TimeUnit.SECONDS));
  }

  @Test
  void aMessageOverTheLimitClosesTheSocket() throws Exception {
    WebSocketMcpClient client = new WebSocketMcpClient(sonde.port());
    client.initialize("2025-11-25");
    client
        .socket()
        .sendText(
            new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "ping")
                .put("params", new JsonObject().put("pad", "x".repeat(10_000)))
                .encode(),
            true)
        .join();
    assertEquals(1009, client.closeCode.get(5, TimeUnit.SECONDS));
  }

  @Test
  void aForeignOriginCannotOpenASocket() {
    Exception refused =
        assertThrows(
            IllegalStateException.class,
            () -> new WebSocketMcpClient(sonde.port(), "http://evil.example.com"));
    assertTrue(
        refused.getMessage().contains("403") || refused.getMessage().contains("WebSocket"),
        refused.getMessage());
  }

  @Test
  void notJsonGetsAParseError() {
    try (WebSocketMcpClient client = new WebSocketMcpClient(sonde.port())) {
      client.socket().sendText("{oops", true).join();
      long end = System.currentTimeMillis() + 5000;
      while (client.received().isEmpty() && System.currentTimeMillis() < end) {
        Thread.onSpinWait();
      }
      assertEquals(-32700, client.received().get(0).getJsonObject("error").getInteger("code"));
    }
  }
}
