package dev.sonde.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.mcp.McpServer;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.SharedSonde;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Streamable HTTP beyond the contract: status codes, guards, limits, streams and resumption. */
class StreamableHttpTest {
  static InProcessSonde strict;
  static InProcessSonde patient;
  final HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() {
    strict =
        new InProcessSonde(
            Map.of(
                "server.maxRequestBytes",
                "2048",
                "server.allowedOrigins",
                "https://app.example.com"));
    patient = new InProcessSonde(Map.of("jobs.cancelOnDisconnect", "false"));
  }

  @AfterAll
  static void stop() {
    strict.close();
    patient.close();
  }

  static HttpMcpClient ready(int port) {
    HttpMcpClient client = new HttpMcpClient(port);
    client.initialize("2025-11-25");
    return client;
  }

  static JsonObject callMessage(long id, String tool, JsonObject args, Object token) {
    JsonObject params = new JsonObject().put("name", tool).put("arguments", args);
    if (token != null) {
      params.put("_meta", new JsonObject().put("progressToken", token));
    }
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("id", id)
        .put("method", "tools/call")
        .put("params", params);
  }

  /** Calls test_slow_job and returns its answer unread, as an event stream. */
  HttpResponse<InputStream> streamSlowJob(
      HttpMcpClient client, long id, JsonObject args, String token) throws Exception {
    return http1.send(
        client.post(callMessage(id, "test_slow_job", args, token)).build(),
        HttpResponse.BodyHandlers.ofInputStream());
  }

  HttpResponse<String> send(HttpRequest request) throws Exception {
    return http1.send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void sessionsAreRequiredKnownAndEndedByDelete() throws Exception {
    HttpMcpClient client = ready(SharedSonde.get().port());
    JsonObject ping = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "ping");
    HttpRequest noSession =
        HttpRequest.newBuilder(client.uri())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(ping.encode()))
            .build();
    assertEquals(400, send(noSession).statusCode());
    HttpRequest unknown =
        HttpRequest.newBuilder(client.uri())
            .header("Content-Type", "application/json")
            .header("Mcp-Session-Id", "nope")
            .POST(HttpRequest.BodyPublishers.ofString(ping.encode()))
            .build();
    assertEquals(404, send(unknown).statusCode());
    assertEquals(200, send(client.post(ping).build()).statusCode());
    HttpRequest delete =
        HttpRequest.newBuilder(client.uri())
            .header("Mcp-Session-Id", client.sessionId())
            .DELETE()
            .build();
    assertEquals(204, send(delete).statusCode());
    assertEquals(404, send(client.post(ping).build()).statusCode());
  }

  @Test
  void malformedRequestsGetTheRightStatus() throws Exception {
    HttpMcpClient client = ready(strict.port());
    JsonObject ping = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "ping");
    assertEquals(
        400,
        send(client.post(ping).setHeader("MCP-Protocol-Version", "2020-01-01").build())
            .statusCode());
    HttpResponse<String> batch =
        send(
            HttpRequest.newBuilder(client.uri())
                .header("Content-Type", "application/json")
                .header("Mcp-Session-Id", client.sessionId())
                .POST(HttpRequest.BodyPublishers.ofString("[" + ping.encode() + "]"))
                .build());
    assertEquals(400, batch.statusCode());
    assertTrue(batch.body().contains("batches are not supported"));
    HttpResponse<String> garbage =
        send(
            HttpRequest.newBuilder(client.uri())
                .header("Content-Type", "application/json")
                .header("Mcp-Session-Id", client.sessionId())
                .POST(HttpRequest.BodyPublishers.ofString("{not json"))
                .build());
    assertEquals(400, garbage.statusCode());
    assertEquals(-32700, new JsonObject(garbage.body()).getJsonObject("error").getInteger("code"));
    HttpResponse<String> text =
        send(
            HttpRequest.newBuilder(client.uri())
                .header("Content-Type", "text/plain")
                .header("Mcp-Session-Id", client.sessionId())
                .POST(HttpRequest.BodyPublishers.ofString(ping.encode()))
                .build());
    assertEquals(415, text.statusCode());
    JsonObject huge = ping.copy().put("params", new JsonObject().put("pad", "x".repeat(4096)));
    assertEquals(413, send(client.post(huge).build()).statusCode());
    assertEquals(
        405,
        send(HttpRequest.newBuilder(client.uri())
                .header("Mcp-Session-Id", client.sessionId())
                .GET()
                .build())
            .statusCode());
    assertEquals(
        405,
        send(HttpRequest.newBuilder(client.uri())
                .PUT(HttpRequest.BodyPublishers.ofString("{}"))
                .build())
            .statusCode());
    JsonObject note =
        new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized");
    assertEquals(202, send(client.post(note).build()).statusCode());
  }

  @Test
  void foreignHostsAndOriginsAreRefused() throws Exception {
    HttpMcpClient client = ready(strict.port());
    JsonObject ping = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "ping");
    assertEquals(
        403,
        send(client.post(ping).header("Origin", "http://evil.example.com").build()).statusCode());
    assertEquals(
        200,
        send(client.post(ping).header("Origin", "https://app.example.com").build()).statusCode());
    assertEquals(
        200,
        send(client.post(ping).header("Origin", "http://localhost:" + strict.port()).build())
            .statusCode());
    // the JDK client will not forge Host, so speak HTTP by hand
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", strict.port())) {
      String body = ping.encode();
      socket
          .getOutputStream()
          .write(
              ("POST /mcp HTTP/1.1\r\nHost: evil.example.com\r\nContent-Type: application/json\r\nContent-Length: "
                      + body.length()
                      + "\r\nConnection: close\r\n\r\n"
                      + body)
                  .getBytes(StandardCharsets.UTF_8));
      String status =
          new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))
              .readLine();
      assertTrue(status.contains(" 403 "), status);
    }
  }

  @Test
  void quickCallsAnswerJsonAndJobsStreamEventsWithIds() throws Exception {
    HttpMcpClient client = ready(SharedSonde.get().port());
    HttpResponse<String> plain =
        send(client.post(callMessage(1, "get_version", new JsonObject(), "p")).build());
    assertTrue(
        plain.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    HttpResponse<String> streamed =
        send(
            client
                .post(
                    callMessage(
                        2,
                        "test_slow_job",
                        new JsonObject().put("steps", 2).put("stepMillis", 0),
                        "p"))
                .build());
    assertTrue(
        streamed.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
    assertTrue(streamed.body().startsWith("id: "), "a priming event with an id comes first");
    assertTrue(streamed.body().contains("retry: "));
    assertTrue(streamed.body().contains("notifications/progress"));
    assertTrue(streamed.body().contains("\"id\":2,\"result\""));
  }

  @Test
  void aClientThatLosesTheStreamResumesWithLastEventId() throws Exception {
    HttpMcpClient client = ready(patient.port());
    HttpResponse<InputStream> response =
        streamSlowJob(client, 5, new JsonObject().put("steps", 6).put("stepMillis", 150), "resume");
    BufferedReader events =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    List<JsonObject> firstPart = new ArrayList<>();
    String lastId = null;
    String line;
    while (firstPart.size() < 3 && (line = events.readLine()) != null) {
      if (line.startsWith("id: ")) {
        lastId = line.substring(4);
      } else if (line.startsWith("data: {")) {
        firstPart.add(new JsonObject(line.substring(6)));
      }
    }
    response.body().close();
    assertNotNull(lastId);
    HttpResponse<InputStream> resumed =
        http1.send(
            HttpRequest.newBuilder(client.uri())
                .header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", client.sessionId())
                .header("Last-Event-ID", lastId)
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(200, resumed.statusCode());
    List<JsonObject> rest = new ArrayList<>();
    JsonObject result =
        client.readEvents(
            new BufferedReader(new InputStreamReader(resumed.body(), StandardCharsets.UTF_8)),
            5,
            rest::add);
    assertNotNull(result, "the result arrives on the resumed stream");
    assertEquals(
        6, result.getJsonObject("result").getJsonObject("structuredContent").getInteger("steps"));
    List<Double> progress = new ArrayList<>();
    firstPart.stream()
        .filter(m -> "notifications/progress".equals(m.getString("method")))
        .forEach(m -> progress.add(m.getJsonObject("params").getDouble("progress")));
    rest.stream()
        .filter(m -> "notifications/progress".equals(m.getString("method")))
        .forEach(m -> progress.add(m.getJsonObject("params").getDouble("progress")));
    assertEquals(
        List.of(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 6.0),
        progress,
        "every step once, none lost, none twice");
  }

  @Test
  void closingTheConnectionCancelsTheCallByDefault() throws Exception {
    InProcessSonde sonde = SharedSonde.get();
    HttpMcpClient client = ready(sonde.port());
    HttpResponse<InputStream> response =
        streamSlowJob(client, 9, new JsonObject().put("steps", 100).put("stepMillis", 50), "drop");
    BufferedReader events =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    String jobId = null;
    String line;
    while (jobId == null && (line = events.readLine()) != null) {
      if (line.startsWith("data: {")) {
        jobId =
            new JsonObject(line.substring(6))
                .getJsonObject("params")
                .getJsonObject("_meta")
                .getJsonObject("traceStep")
                .getString("jobId");
      }
    }
    response.body().close();
    String id = jobId;
    long end = System.currentTimeMillis() + 10_000;
    while (!"cancelled".equals(sonde.sonde().jobs().get(id).status().wireName())) {
      assertTrue(System.currentTimeMillis() < end, "job was not cancelled after the client left");
      Thread.sleep(20);
    }
    assertTrue(
        sonde.sonde().jobs().get(id).summary().getString("message").contains("disconnected"));
  }

  @Test
  void theGetStreamCarriesTaskStatusAndSubscribedResourceUpdates() throws Exception {
    InProcessSonde sonde = SharedSonde.get();
    HttpMcpClient client = ready(sonde.port());
    HttpMcpClient.GetStream stream = client.openGetStream();
    assertEquals(200, stream.status());
    client.request(
        1, "resources/subscribe", new JsonObject().put("uri", "test://watched-resource"));
    sonde
        .sonde()
        .vertx()
        .eventBus()
        .publish(
            McpServer.RESOURCE_UPDATED_ADDRESS, new JsonObject().put("uri", "test://static-text"));
    sonde
        .sonde()
        .vertx()
        .eventBus()
        .publish(
            McpServer.RESOURCE_UPDATED_ADDRESS,
            new JsonObject().put("uri", "test://watched-resource"));
    JsonObject task =
        client
            .request(
                2,
                "tools/call",
                new JsonObject()
                    .put("name", "test_slow_job")
                    .put("arguments", new JsonObject().put("steps", 1).put("stepMillis", 0))
                    .put("task", new JsonObject()))
            .getJsonObject("result");
    String taskId = task.getJsonObject("task").getString("taskId");
    JsonObject status = stream.await("notifications/tasks/status", Duration.ofSeconds(10));
    assertEquals(taskId, status.getJsonObject("params").getString("taskId"));
    assertEquals("completed", status.getJsonObject("params").getString("status"));
    List<String> updated =
        stream.seen().stream()
            .filter(m -> "notifications/resources/updated".equals(m.getString("method")))
            .map(m -> m.getJsonObject("params").getString("uri"))
            .toList();
    assertEquals(List.of("test://watched-resource"), updated);
    stream.close();
  }
}
