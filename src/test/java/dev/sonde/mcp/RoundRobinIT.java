package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.PackagedSonde;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stateless era lets any request land on any node: two Sonde processes behind a round-robin
 * proxy answer one client's discovery, lists, reads, tool calls and a multi-round-trip retry, each
 * request on the other node than the one before.
 */
class RoundRobinIT {
  private static final List<String> FORWARDED =
      List.of(
          "Content-Type",
          "Accept",
          "MCP-Protocol-Version",
          "Mcp-Method",
          "Mcp-Name",
          "Authorization");
  static final List<PackagedSonde> nodes = new ArrayList<>();
  static HttpServer proxy;

  /** The node each request went to, in order. */
  static final List<Integer> served = Collections.synchronizedList(new ArrayList<>());

  @BeforeAll
  static void start() throws IOException {
    // the nodes share the key that seals requestState, so a retry may land on either
    Path config = Files.createTempFile("sonde-round-robin-", ".yaml");
    Files.writeString(
        config,
        "mcp:\n  requestStateSecret: \"round-robin-test-secret\"\ndocs:\n  enabled: false\n");
    for (int i = 0; i < 2; i++) {
      nodes.add(new PackagedSonde("--config", config.toString()));
    }
    HttpClient http = HttpClient.newHttpClient();
    AtomicInteger next = new AtomicInteger();
    proxy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    proxy.createContext(
        "/",
        exchange -> {
          int node = next.getAndIncrement() % nodes.size();
          served.add(node);
          forward(http, nodes.get(node).port(), exchange);
        });
    proxy.start();
  }

  /** Sends the exchange's request to the node on {@code port}, and its answer back, whole. */
  private static void forward(HttpClient http, int port, HttpExchange exchange) throws IOException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + exchange.getRequestURI().getPath()))
            .method(
                exchange.getRequestMethod(),
                HttpRequest.BodyPublishers.ofByteArray(exchange.getRequestBody().readAllBytes()));
    for (String name : FORWARDED) {
      String value = exchange.getRequestHeaders().getFirst(name);
      if (value != null) {
        request.header(name, value);
      }
    }
    try {
      HttpResponse<byte[]> answer =
          http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      answer
          .headers()
          .firstValue("Content-Type")
          .ifPresent(type -> exchange.getResponseHeaders().add("Content-Type", type));
      exchange.sendResponseHeaders(answer.statusCode(), answer.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.sendResponseHeaders(502, -1);
    }
  }

  @AfterAll
  static void stop() {
    proxy.stop(0);
    nodes.forEach(PackagedSonde::close);
  }

  /** Sends the request twice, so each node answers it once; returns both results. */
  static List<JsonObject> onBothNodes(HttpMcpClient client, String method, JsonObject params) {
    List<JsonObject> results = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      int before = served.size();
      JsonObject response = client.request(100 + before, method, params);
      assertNull(response.getValue("error"), method + ": " + response.encode());
      JsonObject result = response.getJsonObject("result");
      assertEquals("complete", result.getString("resultType"), method + ": " + result.encode());
      results.add(result);
    }
    List<Integer> last = served.subList(served.size() - 2, served.size());
    assertEquals(2, new HashSet<>(last).size(), method + " went to " + last);
    return results;
  }

  @Test
  void oneClientsStatelessRequestsAlternateNodesAndAllAnswer() {
    HttpMcpClient client = HttpMcpClient.modern(proxy.getAddress().getPort());
    onBothNodes(client, "server/discover", new JsonObject());
    List<JsonObject> tools = onBothNodes(client, "tools/list", new JsonObject());
    assertEquals(
        tools.get(0).getJsonArray("tools"),
        tools.get(1).getJsonArray("tools"),
        "both nodes list the same tools in the same order");
    JsonArray resources =
        onBothNodes(client, "resources/list", new JsonObject()).get(0).getJsonArray("resources");
    assertFalse(resources.isEmpty());
    String uri = resources.getJsonObject(0).getString("uri");
    onBothNodes(client, "resources/read", new JsonObject().put("uri", uri))
        .forEach(read -> assertFalse(read.getJsonArray("contents").isEmpty()));
    onBothNodes(client, "prompts/list", new JsonObject());
    onBothNodes(
            client,
            "tools/call",
            new JsonObject()
                .put("name", "execute_query")
                .put("arguments", new JsonObject().put("sql", "SELECT 6 * 7 AS answer")))
        .forEach(
            call -> {
              assertFalse(call.getBoolean("isError", false), call.encode());
              assertTrue(call.encode().contains("42"), call.encode());
            });
  }

  @Test
  void eachRoundOfAMultiRoundTripRequestMayLandOnEitherNode() {
    HttpMcpClient client = HttpMcpClient.modern(proxy.getAddress().getPort());
    String tool = "test_input_required_result_multi_round";
    JsonObject answers =
        new JsonObject()
            .put("step1", accept(new JsonObject().put("name", "Alice")))
            .put("step2", accept(new JsonObject().put("color", "blue")));
    JsonObject result = round(client, tool, null, null);
    List<Integer> rounds = new ArrayList<>(List.of(served.get(served.size() - 1)));
    for (String step : List.of("step1", "step2")) {
      assertEquals("input_required", result.getString("resultType"), result.encode());
      result =
          round(
              client,
              tool,
              new JsonObject().put(step, answers.getValue(step)),
              result.getString("requestState"));
      rounds.add(served.get(served.size() - 1));
    }
    assertEquals(List.of(rounds.get(0), 1 - rounds.get(0), rounds.get(0)), rounds);
    assertEquals("complete", result.getString("resultType"), result.encode());
    assertTrue(result.encode().contains("Alice likes blue"), result.encode());
  }

  private static JsonObject accept(JsonObject content) {
    return new JsonObject().put("action", "accept").put("content", content);
  }

  private static JsonObject round(
      HttpMcpClient client, String tool, JsonObject responses, String state) {
    JsonObject params = new JsonObject().put("name", tool).put("arguments", new JsonObject());
    if (responses != null) {
      params.put("inputResponses", responses).put("requestState", state);
    }
    JsonObject response = client.request(served.size() + 1, "tools/call", params);
    assertNull(response.getValue("error"), response.encode());
    return response.getJsonObject("result");
  }
}
