package dev.sonde.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.WebSocketMcpClient;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Idle sessions end on every network transport (issue 16: HTTP sessions never expired, 20,000
 * initialize calls left 20,028 in memory). Slow by nature: the shortest limit is one minute.
 */
class SessionExpiryTest {
  @Test
  void idleHttpAndWebSocketSessionsEndAfterTheLimitWhileBusyOnesStay() throws Exception {
    try (InProcessSonde sonde = new InProcessSonde(Map.of("mcp.sessionIdleMinutes", "1"))) {
      HttpMcpClient idleHttp = new HttpMcpClient(sonde.port());
      idleHttp.initialize("2025-11-25");
      HttpMcpClient busyHttp = new HttpMcpClient(sonde.port());
      busyHttp.initialize("2025-11-25");
      try (WebSocketMcpClient idleSocket = new WebSocketMcpClient(sonde.port())) {
        idleSocket.initialize("2025-11-25");
        assertEquals(3, sonde.sonde().server().sessions().all().size());
        JsonObject ping = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "ping");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long started = System.nanoTime();
        // the busy client pings every 10 s; a sweep runs every 15 s against a 60 s limit
        while (sonde.sonde().server().sessions().all().size() > 1
            && System.nanoTime() - started < TimeUnit.MINUTES.toNanos(4)) {
          assertEquals(
              200,
              http.send(busyHttp.post(ping).build(), HttpResponse.BodyHandlers.discarding())
                  .statusCode());
          Thread.sleep(10_000);
        }
        long waited = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        assertEquals(1, sonde.sonde().server().sessions().all().size(), "after " + waited + " s");
        assertTrue(waited >= 50, "sessions ended after only " + waited + " s");
        assertEquals(
            404,
            http.send(idleHttp.post(ping).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode());
        assertEquals(1001, idleSocket.closeCode.get(30, TimeUnit.SECONDS));
        assertEquals(
            200,
            http.send(busyHttp.post(ping).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode());
      }
    }
  }
}
