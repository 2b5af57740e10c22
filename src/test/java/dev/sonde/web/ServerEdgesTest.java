package dev.sonde.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import dev.sonde.support.RawHttp;
import dev.sonde.support.WebSocketMcpClient;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server's edges as an attacker meets them (issue 16): where it listens, what idle and slow
 * sockets cost, what a peer may hold, how strictly messages are read, who may use a session, and
 * what a browser page on another site can make it do. Each test checks the effect, not only the
 * answer.
 */
class ServerEdgesTest {
  static InProcessSonde edges;
  static InProcessSonde few;
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() {
    edges =
        new InProcessSonde(
            Map.of(
                "server.headerTimeoutSeconds", "2",
                "server.bodyTimeoutSeconds", "2",
                "server.maxConnectionsPerPeer", "400"));
    few =
        new InProcessSonde(
            Map.of(
                "server.maxConnectionsPerPeer", "5",
                "mcp.maxSessions", "3",
                "server.maxBufferedBytes", "1048576"));
  }

  @AfterAll
  static void stop() {
    edges.close();
    few.close();
  }

  static JsonObject ping(int id) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "ping");
  }

  HttpResponse<String> send(HttpRequest request) throws Exception {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  HttpRequest.Builder get(int port, String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
  }

  @Test
  void itListensOnTheConfiguredAddressOnly() throws Exception {
    int port = edges.port();
    String portHex = String.format(Locale.ROOT, "%04X", port);
    List<String> listening = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      for (String line : Files.readAllLines(Path.of(table))) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length > 3 && fields[1].endsWith(":" + portHex) && fields[3].equals("0A")) {
          listening.add(fields[1].substring(0, fields[1].indexOf(':')));
        }
      }
    }
    // 127.0.0.1 in the kernel's byte order, as IPv4 or IPv4-mapped IPv6; never all zeros
    assertEquals(1, listening.size(), listening.toString());
    assertTrue(
        List.of("0100007F", "0000000000000000FFFF00000100007F").contains(listening.get(0)),
        listening.toString());
    // the whole of 127/8 reaches loopback: a socket bound everywhere would answer here
    try (Socket other = new Socket()) {
      assertThrows(
          ConnectException.class,
          () -> other.connect(new InetSocketAddress("127.0.0.2", port), 2000));
    }
  }

  @Test
  void idleSocketsThatDeclareLargeBodiesReserveNothingAndAreClosedByTheBodyTimeout()
      throws Exception {
    long before = usedHeapAfterGc();
    List<RawHttp> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < 300; i++) {
        sockets.add(
            new RawHttp(null, edges.port())
                .send(
                    "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                        + edges.port()
                        + "\r\nContent-Type: application/json\r\nContent-Length: 4194304\r\n\r\n{"));
      }
      // one event loop serves them all: once a later request is answered, every head was read
      String answer = RawHttp.request(null, edges.port(), "GET /api/jobs HTTP/1.1\r\n", "");
      assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
      long grown = usedHeapAfterGc() - before;
      assertTrue(grown < 50L * 1024 * 1024, "heap grew by " + grown / (1024 * 1024) + " MiB");
      for (RawHttp socket : sockets) {
        assertTrue(socket.closedByServerWithin(60), "a stalled body kept its connection");
      }
    } finally {
      for (RawHttp socket : sockets) {
        socket.close();
      }
    }
    assertEquals(200, send(get(edges.port(), "/api/jobs").build()).statusCode());
  }

  @Test
  void aConnectionThatSendsNoCompleteHeadIsClosed() throws Exception {
    try (RawHttp silent = new RawHttp(null, edges.port());
        RawHttp trickle = new RawHttp(null, edges.port())) {
      trickle.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
      assertTrue(silent.closedByServerWithin(60), "a silent connection stayed open");
      assertTrue(trickle.closedByServerWithin(60), "an unfinished head kept its connection");
    }
  }

  @Test
  void onePeerHoldsAtMostItsShareOfConnections() throws Exception {
    List<RawHttp> held = new ArrayList<>();
    try {
      for (int i = 0; i < 5; i++) {
        held.add(new RawHttp(null, few.port()));
      }
      // the five are accepted and counted before the sixth arrives on the same event loop
      try (RawHttp sixth = new RawHttp(null, few.port())) {
        assertTrue(sixth.closedByServerWithin(30), "a sixth connection from one peer was kept");
      }
      // every loopback address is one peer: a local process could send from any of 127/8
      try (RawHttp fromAnotherLoopback = new RawHttp("127.0.0.2", few.port())) {
        assertTrue(
            fromAnotherLoopback.closedByServerWithin(30), "127.0.0.2 got a place of its own");
      }
    } finally {
      for (RawHttp socket : held) {
        socket.close();
      }
    }
    // the closed five are released as the server sees them go
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String again = "";
    while (System.nanoTime() < until && !again.startsWith("HTTP/1.1 200")) {
      try {
        again = RawHttp.request(null, few.port(), "GET /api/jobs HTTP/1.1\r\n", "");
      } catch (IOException e) {
        again = e.toString();
      }
    }
    assertTrue(again.startsWith("HTTP/1.1 200"), again);
  }

  @Test
  void aSlowHeadAfterAFinishedAnswerIsClosedToo() throws Exception {
    // the next head on a kept-alive connection must be whole within the idle limit
    Map<String, String> quick =
        Map.of(
            "server.keepAliveSeconds", "1",
            "mcp.toolTimeoutSeconds", "2",
            "server.idleTimeoutSeconds", "3");
    try (InProcessSonde sonde = new InProcessSonde(quick);
        RawHttp keptAlive = new RawHttp(null, sonde.port())) {
      keptAlive.send("GET /api/jobs HTTP/1.1\r\nHost: 127.0.0.1:" + sonde.port() + "\r\n\r\n");
      assertTrue(keptAlive.readAnswer().startsWith("HTTP/1.1 200"));
      keptAlive.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      // a header line a second keeps the idle timeout away; the head's deadline does not move
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      boolean closed = false;
      while (!closed && System.nanoTime() < until) {
        try {
          keptAlive.send("X-Slow: 1\r\n");
          closed = keptAlive.closedByServerWithin(1);
        } catch (IOException e) {
          closed = true;
        }
      }
      assertTrue(closed, "a head trickling in after an answer kept its connection for 30 s");
    }
  }

  @Test
  void webSocketsGiveTheirPlaceBackWhenTheyClose() throws Exception {
    try (InProcessSonde tight = new InProcessSonde(Map.of("server.maxConnectionsPerPeer", "5"))) {
      for (int i = 0; i < 8; i++) {
        try (WebSocketMcpClient client = new WebSocketMcpClient(tight.port())) {
          assertNotNull(client.request(1, "ping", null));
        }
        // closes are counted as the server sees them: wait for each before the next
        assertTrue(answersWithin(tight.port(), "GET /api/jobs HTTP/1.1\r\n", "", " 200 "));
      }
      // more sockets than the peer may hold have come and gone: it still gets in
      assertTrue(answersWithin(tight.port(), "GET /api/jobs HTTP/1.1\r\n", "", " 200 "));
    }
  }

  /** Whether a request gets an answer holding {@code expected} within 30 s of retries. */
  static boolean answersWithin(int port, String head, String body, String expected) {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < until) {
      try {
        if (RawHttp.request(null, port, head, body)
            .lines()
            .findFirst()
            .orElse("")
            .contains(expected)) {
          return true;
        }
      } catch (IOException e) {
        // refused while the server still counts closed sockets: try again
      }
    }
    return false;
  }

  @Test
  void halfSentBodiesStopAtTheServersBufferBudget() throws Exception {
    // few buffers 1 MiB in all: a second 700 KB body that has not ended is refused
    String head =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
            + few.port()
            + "\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n";
    byte[] part = new byte[700_000];
    Arrays.fill(part, (byte) ' ');
    try (RawHttp first = new RawHttp(null, few.port());
        RawHttp second = new RawHttp(null, few.port())) {
      first.send(head).send(part);
      second.send(head).send(part);
      // whichever crosses the budget first is refused; the other waits for the rest of its body
      String answers = "";
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!answers.contains("HTTP/1.1 503") && System.nanoTime() < until) {
        answers += first.readFor(100) + second.readFor(100);
      }
      assertTrue(answers.startsWith("HTTP/1.1 503"), answers);
      assertTrue(answers.contains("limit of unfinished requests"), answers);
      assertEquals(1, answers.split("HTTP/1.1 503", -1).length - 1, "exactly one is refused");
    }
    // both gone, their budget is back: a small body is read again (and meets an unknown session)
    assertTrue(
        answersWithin(
            few.port(),
            "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nMcp-Session-Id: x\r\n",
            ping(1).encode(),
            " 404 "));
  }

  @Test
  void aWebSocketMessageLeftUnfinishedIsClosedWith1008() throws Exception {
    try (WebSocketMcpClient client = new WebSocketMcpClient(edges.port())) {
      client.socket().sendText("{\"jsonrpc\":\"2.0\",", false).join();
      assertEquals(1008, client.closeCode.get(60, TimeUnit.SECONDS));
    }
  }

  @Test
  void httpBodiesAreStrictUtf8AndTheirNumbersFinite() throws Exception {
    HttpMcpClient client = new HttpMcpClient(edges.port());
    client.initialize("2025-11-25");
    byte[] overlongSlash = {(byte) 0xC0, (byte) 0xAF};
    ByteArrayOutputStream overlong = new ByteArrayOutputStream();
    overlong.write(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"get".getBytes(StandardCharsets.UTF_8));
    overlong.write(overlongSlash);
    overlong.write("version\"}".getBytes(StandardCharsets.UTF_8));
    for (byte[] body :
        List.of(
            ping(1).encode().getBytes(StandardCharsets.UTF_16LE),
            overlong.toByteArray(),
            "{\"jsonrpc\":\"2.0\",\"id\":1e999999,\"method\":\"ping\"}"
                .getBytes(StandardCharsets.UTF_8))) {
      HttpResponse<String> answer =
          send(client.post(ping(1)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
      assertEquals(400, answer.statusCode(), answer.body());
      assertEquals(-32700, new JsonObject(answer.body()).getJsonObject("error").getInteger("code"));
    }
  }

  @Test
  void aNavigationFromAnotherSiteCannotReachTheApiByAnotherSpellingOfItsPath() throws Exception {
    for (String path : List.of("//api/jobs", "/%61pi/jobs", "/./api/jobs", "/x/../api/jobs")) {
      String answer =
          RawHttp.request(
              null,
              edges.port(),
              "GET "
                  + path
                  + " HTTP/1.1\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\n"
                  + "Sec-Fetch-Dest: document\r\n",
              "");
      assertTrue(answer.startsWith("HTTP/1.1 403"), path + ": " + answer);
    }
  }

  @Test
  void aHostSpelledTheOldWayBindsItsAddress() {
    try (InProcessSonde shortHost = new InProcessSonde(Map.of("server.host", "127.1"))) {
      assertTrue(answersWithin(shortHost.port(), "GET /api/jobs HTTP/1.1\r\n", "", " 200 "));
    }
  }

  @Test
  void messagesAreReadAsPlainJsonOnly() throws Exception {
    HttpMcpClient client = new HttpMcpClient(edges.port());
    client.initialize("2025-11-25");
    String ping = ping(1).encode();
    assertEquals(
        415,
        send(client.post(ping(1)).setHeader("Content-Type", "application/jsonx").build())
            .statusCode());
    assertEquals(
        200,
        send(client
                .post(ping(1))
                .setHeader("Content-Type", "application/json; charset=utf-8")
                .build())
            .statusCode());
    for (String body :
        List.of(
            "/* hi */ " + ping,
            "\uFEFF" + ping,
            ping + " {}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}")) {
      HttpResponse<String> answer =
          send(
              client
                  .post(ping(1))
                  .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                  .build());
      assertEquals(400, answer.statusCode(), body);
      assertEquals(
          -32700, new JsonObject(answer.body()).getJsonObject("error").getInteger("code"), body);
    }
    HttpResponse<String> deep =
        send(
            client
                .post(ping(1))
                .POST(HttpRequest.BodyPublishers.ofString(deeplyNestedCall(900)))
                .build());
    assertEquals(400, deep.statusCode());
    JsonObject error = new JsonObject(deep.body()).getJsonObject("error");
    assertEquals(-32700, error.getInteger("code"));
    assertTrue(error.getString("message").contains("nested deeper than 64"), deep.body());
    assertEquals(200, send(client.post(ping(2)).build()).statusCode());
  }

  /** A tools/call whose arguments nest {@code depth} objects deep. */
  static String deeplyNestedCall(int depth) {
    return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
        + "\"get_version\",\"arguments\":{\"options\":"
        + "{\"a\":".repeat(depth)
        + "1"
        + "}".repeat(depth)
        + "}}}";
  }

  @Test
  void aDeeplyNestedWebSocketMessageIsAParseErrorAndTheSocketLivesOn() throws Exception {
    try (WebSocketMcpClient client = new WebSocketMcpClient(edges.port())) {
      client.initialize("2025-11-25");
      client.socket().sendText(deeplyNestedCall(900), true).join();
      // a parse error answers id null, so it arrives among the unsolicited messages
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (client.received().isEmpty() && System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      JsonObject answer = client.received().get(0);
      assertEquals(-32700, answer.getJsonObject("error").getInteger("code"), answer.encode());
      assertNotNull(client.request(8, "ping", null).getJsonObject("result"));
    }
  }

  @Test
  void aWebSocketMustOfferTheMcpSubprotocol() {
    CompletionException refused =
        assertThrows(
            CompletionException.class,
            () ->
                HttpClient.newHttpClient()
                    .newWebSocketBuilder()
                    .buildAsync(
                        URI.create("ws://127.0.0.1:" + edges.port() + "/mcp/ws"),
                        new WebSocket.Listener() {})
                    .join());
    assertTrue(refused.getCause() instanceof WebSocketHandshakeException, refused.toString());
    assertEquals(
        400, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode());
  }

  @Test
  void textThatIsNotUtf8ClosesTheWebSocketWith1007() throws Exception {
    try (RawHttp raw = new RawHttp(null, edges.port())) {
      raw.send(
          "GET /mcp/ws HTTP/1.1\r\nHost: 127.0.0.1:"
              + edges.port()
              + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
              + "Sec-WebSocket-Protocol: mcp\r\n\r\n");
      InputStream in = raw.socket().getInputStream();
      String head = readHead(in);
      assertTrue(head.startsWith("HTTP/1.1 101"), head);
      byte[] payload = {'{', (byte) 0xC3, (byte) 0x28, '}'};
      byte[] mask = {1, 2, 3, 4};
      ByteArrayOutputStream frame = new ByteArrayOutputStream();
      frame.write(0x81);
      frame.write(0x80 | payload.length);
      frame.write(mask);
      for (int i = 0; i < payload.length; i++) {
        frame.write(payload[i] ^ mask[i % 4]);
      }
      raw.send(frame.toByteArray());
      int opcode = in.read() & 0x0f;
      int length = in.read() & 0x7f;
      byte[] body = in.readNBytes(length);
      assertEquals(0x8, opcode, "expected a close frame");
      assertEquals(1007, ((body[0] & 0xff) << 8) | (body[1] & 0xff));
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.write(b);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  @Test
  void theJobsApiShowsAnOpaqueOwnerNeverASessionId() throws Exception {
    HttpMcpClient client = new HttpMcpClient(edges.port());
    client.initialize("2025-11-25");
    JsonObject result =
        client.request(
            3,
            "tools/call",
            new JsonObject()
                .put("name", "test_slow_job")
                .put("arguments", new JsonObject().put("steps", 2).put("stepMillis", 1)));
    assertNotNull(result);
    String list = send(get(edges.port(), "/api/jobs").build()).body();
    assertFalse(list.contains(client.sessionId()), list);
    JsonObject job =
        new JsonObject(list)
            .getJsonArray("jobs").stream()
                .map(JsonObject.class::cast)
                .filter(j -> j.getString("tool").equals("test_slow_job"))
                .findFirst()
                .orElseThrow();
    assertFalse(job.containsKey("session"));
    assertEquals(16, job.getString("owner").length());
    String detail = send(get(edges.port(), "/api/jobs/" + job.getString("id")).build()).body();
    assertFalse(detail.contains(client.sessionId()), detail);
  }

  @Test
  void aSessionIdIsUselessFromAnotherAddress() throws Exception {
    HttpMcpClient victim = new HttpMcpClient(edges.port());
    victim.initialize("2025-11-25");
    String id = victim.sessionId();
    String session = "Mcp-Session-Id: " + id + "\r\n";
    String post =
        RawHttp.request(
            "127.0.0.2",
            edges.port(),
            "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\n"
                + session,
            ping(5).encode());
    assertTrue(post.startsWith("HTTP/1.1 404"), post);
    String replay =
        RawHttp.request(
            "127.0.0.2",
            edges.port(),
            "GET /mcp HTTP/1.1\r\nAccept: text/event-stream\r\nLast-Event-ID: s_1\r\n" + session,
            "");
    assertTrue(replay.startsWith("HTTP/1.1 404"), replay);
    String delete =
        RawHttp.request("127.0.0.2", edges.port(), "DELETE /mcp HTTP/1.1\r\n" + session, "");
    assertTrue(delete.startsWith("HTTP/1.1 404"), delete);
    // the victim's session survived all three
    assertEquals(200, send(victim.post(ping(6)).build()).statusCode());
  }

  @Test
  void sessionsStopAtTheirCapAndAFreedPlaceCanBeTakenAgain() throws Exception {
    List<HttpMcpClient> clients = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      HttpMcpClient client = new HttpMcpClient(few.port());
      client.initialize("2025-11-25");
      clients.add(client);
    }
    HttpResponse<String> refused = send(initialize(few.port()));
    assertEquals(503, refused.statusCode());
    JsonObject error = new JsonObject(refused.body()).getJsonObject("error");
    assertEquals(-32000, error.getInteger("code"));
    assertTrue(error.getString("message").contains("mcp.maxSessions"), refused.body());
    assertEquals(3, few.sonde().server().sessions().all().size());
    assertEquals(
        204,
        send(get(few.port(), "/mcp")
                .header("Mcp-Session-Id", clients.get(0).sessionId())
                .DELETE()
                .build())
            .statusCode());
    assertEquals(200, send(initialize(few.port())).statusCode());
  }

  static HttpRequest initialize(int port) {
    JsonObject init =
        McpClient.message(1L, "initialize", McpClient.initializeParams("2025-11-25", "t"));
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(init.encode()))
        .build();
  }

  @Test
  void everyAnswerRefusesFramingAndSniffing() throws Exception {
    for (String path : List.of("/", "/dashboards.html", "/api/jobs", "/mcp", "/no-such-page")) {
      HttpResponse<String> answer = send(get(edges.port(), path).build());
      assertEquals("DENY", answer.headers().firstValue("X-Frame-Options").orElse(""), path);
      assertEquals(
          "frame-ancestors 'none'",
          answer.headers().firstValue("Content-Security-Policy").orElse(""),
          path);
      assertEquals("nosniff", answer.headers().firstValue("X-Content-Type-Options").orElse(""));
    }
  }

  @Test
  void aPageOnAnotherSiteCanNavigateButNotCallTheApi() throws Exception {
    assertEquals(
        403,
        send(browser("/api/charts/x.chart.json/data", "cross-site", "no-cors", "image"))
            .statusCode());
    assertEquals(403, send(browser("/api/jobs", "same-site", "cors", "empty")).statusCode());
    assertEquals(200, send(browser("/api/jobs", "same-origin", "cors", "empty")).statusCode());
    assertEquals(200, send(browser("/", "cross-site", "navigate", "document")).statusCode());
    assertEquals(
        403, send(browser("/api/jobs", "cross-site", "navigate", "document")).statusCode());
    // a page on local port 80 is not Sonde's own origin
    for (String origin : List.of("http://localhost", "http://127.0.0.1", "http://[::1]")) {
      assertEquals(
          403, send(get(edges.port(), "/api/jobs").header("Origin", origin).build()).statusCode());
    }
  }

  /** A GET as a browser labels it: which site asks, how, and for what. */
  HttpRequest browser(String path, String site, String mode, String dest) {
    return get(edges.port(), path)
        .header("Sec-Fetch-Site", site)
        .header("Sec-Fetch-Mode", mode)
        .header("Sec-Fetch-Dest", dest)
        .build();
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
