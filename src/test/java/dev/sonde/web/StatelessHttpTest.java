package dev.sonde.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import dev.sonde.support.SharedSonde;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MCP 2026-07-28 over Streamable HTTP: each POST stands alone (its version, capabilities and client
 * in {@code _meta}), no session is made, headers must mirror the body, and closing a request's
 * stream cancels it.
 */
class StatelessHttpTest {
  static InProcessSonde patient;
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() {
    // a legacy session survives a closed stream here; a modern request must not
    patient = new InProcessSonde(Map.of("jobs.cancelOnDisconnect", "false"));
  }

  @AfterAll
  static void stop() {
    patient.close();
  }

  static JsonObject message(long id, String method, JsonObject params) {
    return McpClient.message(id, method, McpClient.modern(params));
  }

  HttpRequest.Builder post(int port, JsonObject message) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(message.encode()));
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void discoverSaysWhatIsSpokenWithoutMakingASession() throws Exception {
    InProcessSonde sonde = SharedSonde.get();
    int sessions = sonde.sonde().server().sessions().all().size();
    HttpResponse<String> response =
        send(
            post(sonde.port(), message(1, "server/discover", null))
                .header("MCP-Protocol-Version", McpClient.MODERN)
                .header("Mcp-Method", "server/discover"));
    assertEquals(200, response.statusCode(), response.body());
    assertTrue(response.headers().firstValue("Mcp-Session-Id").isEmpty());
    JsonObject result = new JsonObject(response.body()).getJsonObject("result");
    assertEquals(new JsonArray().add(McpClient.MODERN), result.getJsonArray("supportedVersions"));
    assertEquals("complete", result.getString("resultType"));
    assertTrue(result.getJsonObject("capabilities").containsKey("tools"), result.encode());
    assertEquals(
        "sonde",
        result
            .getJsonObject("_meta")
            .getJsonObject("io.modelcontextprotocol/serverInfo")
            .getString("name"));
    assertTrue(result.getLong("ttlMs") > 0);
    assertEquals("public", result.getString("cacheScope"));
    assertEquals(sessions, sonde.sonde().server().sessions().all().size());
  }

  @Test
  void listsReadsAndCallsAnswerStatelessly() throws Exception {
    InProcessSonde sonde = SharedSonde.get();
    int sessions = sonde.sonde().server().sessions().all().size();
    HttpMcpClient client = HttpMcpClient.modern(sonde.port());
    JsonObject tools = client.request(1, "tools/list", null).getJsonObject("result");
    assertEquals("complete", tools.getString("resultType"));
    assertEquals("public", tools.getString("cacheScope"));
    assertTrue(tools.getJsonArray("tools").size() > 20);
    JsonObject resources = client.request(2, "resources/list", null).getJsonObject("result");
    assertEquals("private", resources.getString("cacheScope"));
    JsonObject guide =
        client
            .request(3, "resources/read", new JsonObject().put("uri", "sonde://guide"))
            .getJsonObject("result");
    assertFalse(guide.getJsonArray("contents").isEmpty());
    assertNotNull(guide.getLong("ttlMs"));
    JsonObject call =
        client
            .request(
                4,
                "tools/call",
                new JsonObject()
                    .put("name", "execute_query")
                    .put(
                        "arguments",
                        new JsonObject()
                            .put("sql", "SELECT 40 + 2 AS answer")
                            .put("format", "json")))
            .getJsonObject("result");
    assertEquals("complete", call.getString("resultType"));
    assertFalse(call.getBoolean("isError", false), call.encode());
    assertTrue(call.encode().contains("42"), call.encode());
    // the result is the server's to sign: its identity, on every result
    assertNotNull(call.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo"));
    assertEquals(sessions, sonde.sonde().server().sessions().all().size());
  }

  @Test
  void theModernErrorsCarryTheirCodesAndStatuses() throws Exception {
    int port = SharedSonde.get().port();
    // a version Sonde does not speak: 400, -32022 and what it does speak
    JsonObject future = message(1, "tools/list", null);
    future
        .getJsonObject("params")
        .getJsonObject("_meta")
        .put("io.modelcontextprotocol/protocolVersion", "2099-01-01");
    HttpResponse<String> unsupported =
        send(
            post(port, future)
                .header("MCP-Protocol-Version", "2099-01-01")
                .header("Mcp-Method", "tools/list"));
    assertEquals(400, unsupported.statusCode());
    JsonObject error = new JsonObject(unsupported.body()).getJsonObject("error");
    assertEquals(-32022, error.getInteger("code"));
    assertEquals(
        new JsonArray().add(McpClient.MODERN),
        error.getJsonObject("data").getJsonArray("supported"));

    // an unknown method, and the legacy lifecycle's: 404 and -32601
    for (String method : new String[] {"no/such", "initialize", "ping", "logging/setLevel"}) {
      HttpResponse<String> unknown =
          send(
              post(port, message(2, method, null))
                  .header("MCP-Protocol-Version", McpClient.MODERN)
                  .header("Mcp-Method", method));
      assertEquals(404, unknown.statusCode(), method + ": " + unknown.body());
      assertEquals(
          -32601, new JsonObject(unknown.body()).getJsonObject("error").getInteger("code"));
    }

    // a resource that does not exist is invalid params in this revision
    HttpMcpClient client = HttpMcpClient.modern(port);
    JsonObject missing =
        client.request(3, "resources/read", new JsonObject().put("uri", "sonde://no-such"));
    assertEquals(-32602, missing.getJsonObject("error").getInteger("code"));

    // capabilities are required on every request
    JsonObject bare = message(4, "tools/list", null);
    bare.getJsonObject("params")
        .getJsonObject("_meta")
        .remove("io.modelcontextprotocol/clientCapabilities");
    HttpResponse<String> noCapabilities =
        send(
            post(port, bare)
                .header("MCP-Protocol-Version", McpClient.MODERN)
                .header("Mcp-Method", "tools/list"));
    assertEquals(400, noCapabilities.statusCode());
    assertEquals(
        -32602, new JsonObject(noCapabilities.body()).getJsonObject("error").getInteger("code"));
  }

  @Test
  void headersThatDisagreeWithTheBodyAreRefusedBeforeAnythingRuns() throws Exception {
    int port = SharedSonde.get().port();
    JsonObject call =
        message(
            1,
            "tools/call",
            new JsonObject().put("name", "get_version").put("arguments", new JsonObject()));
    record Case(String why, String version, String method, String name) {}
    for (Case c :
        new Case[] {
          new Case("no version header", null, "tools/call", "get_version"),
          new Case("another version", "2025-11-25", "tools/call", "get_version"),
          new Case("no method header", McpClient.MODERN, null, "get_version"),
          new Case("another method", McpClient.MODERN, "tools/list", "get_version"),
          new Case("no name header", McpClient.MODERN, "tools/call", null),
          new Case("another name", McpClient.MODERN, "tools/call", "delete_file"),
          new Case(
              "another name, encoded",
              McpClient.MODERN,
              "tools/call",
              "=?base64?" + Base64.getEncoder().encodeToString("delete_file".getBytes()) + "?="),
          new Case("a broken encoding", McpClient.MODERN, "tools/call", "=?base64?***?=")
        }) {
      HttpRequest.Builder request = post(port, call);
      if (c.version() != null) {
        request.header("MCP-Protocol-Version", c.version());
      }
      if (c.method() != null) {
        request.header("Mcp-Method", c.method());
      }
      if (c.name() != null) {
        request.header("Mcp-Name", c.name());
      }
      HttpResponse<String> response = send(request);
      assertEquals(400, response.statusCode(), c.why() + ": " + response.body());
      assertEquals(
          -32020,
          new JsonObject(response.body()).getJsonObject("error").getInteger("code"),
          c.why());
    }
    // the sentinel form of the right name is the right name
    HttpResponse<String> encoded =
        send(
            post(port, call)
                .header("MCP-Protocol-Version", McpClient.MODERN)
                .header("Mcp-Method", "tools/call")
                .header(
                    "Mcp-Name",
                    "=?base64?"
                        + Base64.getEncoder()
                            .encodeToString("get_version".getBytes(StandardCharsets.UTF_8))
                        + "?="));
    assertEquals(200, encoded.statusCode(), encoded.body());
    assertNotNull(new JsonObject(encoded.body()).getJsonObject("result"));
  }

  @Test
  void theLegacyMethodsOfASessionAreClosedToModernClients() throws Exception {
    int port = SharedSonde.get().port();
    HttpResponse<String> get =
        send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
                .header("Accept", "text/event-stream")
                .header("MCP-Protocol-Version", McpClient.MODERN)
                .GET());
    assertEquals(405, get.statusCode());
  }

  @Test
  void progressStreamsOnTheRequestAndLogsOnlyWhenAsked() throws Exception {
    HttpMcpClient client = HttpMcpClient.modern(SharedSonde.get().port());
    JsonObject params =
        new JsonObject()
            .put("name", "test_slow_job")
            .put("arguments", new JsonObject().put("steps", 3).put("stepMillis", 10))
            .put("_meta", new JsonObject().put("progressToken", "modern-1"));
    HttpResponse<InputStream> response =
        http.send(
            client.post(McpClient.message(7L, "tools/call", params)).build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertEquals("no", response.headers().firstValue("X-Accel-Buffering").orElse(null));
    assertTrue(response.headers().firstValue("Mcp-Session-Id").isEmpty());
    JsonObject answer = client.read(response, 7L, m -> {});
    assertEquals("complete", answer.getJsonObject("result").getString("resultType"));
    assertTrue(client.eventIds.isEmpty(), "a modern stream is not resumable: " + client.eventIds);
    assertFalse(client.received("notifications/progress").isEmpty());
    assertTrue(client.received("notifications/message").isEmpty(), "no logLevel, no logs");
    assertNull(answer.getValue("error"));
  }

  @Test
  void closingTheStreamCancelsTheRequestEvenWhereSessionsOutliveTheirStreams() throws Exception {
    HttpMcpClient client = HttpMcpClient.modern(patient.port());
    JsonObject params =
        new JsonObject()
            .put("name", "test_slow_job")
            .put("arguments", new JsonObject().put("steps", 200).put("stepMillis", 50))
            .put("_meta", new JsonObject().put("progressToken", "modern-drop"));
    HttpResponse<InputStream> response =
        http.send(
            client.post(McpClient.message(8L, "tools/call", params)).build(),
            HttpResponse.BodyHandlers.ofInputStream());
    String[] jobId = new String[1];
    try (var lines =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String line;
      while (jobId[0] == null && (line = lines.readLine()) != null) {
        if (line.startsWith("data: {")) {
          jobId[0] =
              new JsonObject(line.substring(6))
                  .getJsonObject("params")
                  .getJsonObject("_meta")
                  .getJsonObject("traceStep")
                  .getString("jobId");
        }
      }
    }
    long end = System.currentTimeMillis() + 10_000;
    while (!"cancelled".equals(patient.sonde().jobs().get(jobId[0]).status().wireName())) {
      assertTrue(System.currentTimeMillis() < end, "the job ran on after its stream closed");
      Thread.sleep(20);
    }
  }

  @Test
  void aListenStreamCarriesOnlyTheChangesItAskedForTaggedWithItsId() throws Exception {
    InProcessSonde sonde = SharedSonde.get();
    HttpMcpClient client = HttpMcpClient.modern(sonde.port());
    JsonObject filter =
        new JsonObject()
            .put("toolsListChanged", true)
            .put("resourceSubscriptions", new JsonArray().add("sonde://guide").add("nope://x"));
    HttpResponse<InputStream> response =
        http.send(
            client
                .post(
                    McpClient.message(
                        77L, "subscriptions/listen", new JsonObject().put("notifications", filter)))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertEquals("no", response.headers().firstValue("X-Accel-Buffering").orElse(null));
    java.util.concurrent.BlockingQueue<JsonObject> events =
        new java.util.concurrent.LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (var lines =
                  new java.io.BufferedReader(
                      new java.io.InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  if (line.startsWith("data: ")) {
                    events.add(new JsonObject(line.substring(6)));
                  }
                }
              } catch (java.io.IOException e) {
                // closed by the test
              }
            });
    reader.setDaemon(true);
    reader.start();
    JsonObject ack = events.poll(60, java.util.concurrent.TimeUnit.SECONDS);
    assertNotNull(ack, "no acknowledgement");
    assertEquals("notifications/subscriptions/acknowledged", ack.getString("method"));
    assertEquals(
        77,
        ack.getJsonObject("params")
            .getJsonObject("_meta")
            .getInteger("io.modelcontextprotocol/subscriptionId"));
    // what Sonde honours: the tool list, and the one resource that exists
    assertEquals(
        new JsonObject()
            .put("toolsListChanged", true)
            .put("resourceSubscriptions", new JsonArray().add("sonde://guide")),
        ack.getJsonObject("params").getJsonObject("notifications"));

    // a resources list change was not asked for: it must not arrive before the update that was
    sonde
        .sonde()
        .vertx()
        .eventBus()
        .publish(dev.sonde.tools.CallHeaders.RESOURCES_CHANGED_ADDRESS, new JsonObject());
    sonde
        .sonde()
        .vertx()
        .eventBus()
        .publish(
            dev.sonde.mcp.McpServer.RESOURCE_UPDATED_ADDRESS,
            new JsonObject().put("uri", "sonde://guide"));
    JsonObject updated = events.poll(60, java.util.concurrent.TimeUnit.SECONDS);
    assertNotNull(updated);
    assertEquals("notifications/resources/updated", updated.getString("method"), updated.encode());
    assertEquals("sonde://guide", updated.getJsonObject("params").getString("uri"));

    client.request(
        78,
        "tools/call",
        new JsonObject()
            .put("name", "test_trigger_tool_change")
            .put("arguments", new JsonObject()));
    JsonObject changed = events.poll(60, java.util.concurrent.TimeUnit.SECONDS);
    assertNotNull(changed);
    assertEquals("notifications/tools/list_changed", changed.getString("method"));
    assertEquals(
        77,
        changed
            .getJsonObject("params")
            .getJsonObject("_meta")
            .getInteger("io.modelcontextprotocol/subscriptionId"));
    response.body().close();
  }
}
