package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.auth.AuditTrail;
import dev.sonde.auth.FairUse;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.SharedSonde;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The protocol engine driven directly, without a transport. */
class McpServerTest {
  final InProcessSonde sonde = SharedSonde.get();
  final McpServer server = sonde.sonde().server();
  final List<JsonObject> sent = new CopyOnWriteArrayList<>();
  final ClientChannel channel = sent::add;

  JsonObject handle(Session session, JsonObject message) throws Exception {
    return server
        .handle(session, message, channel)
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  Session initialized() throws Exception {
    Session session = server.openSession("test");
    session.standalone(channel);
    handle(
        session,
        JsonRpc.request(0, "initialize", new JsonObject().put("protocolVersion", "2025-06-18")));
    return session;
  }

  static int code(JsonObject response) {
    return response.getJsonObject("error").getInteger("code");
  }

  @Test
  void malformedEnvelopesAreInvalidRequests() throws Exception {
    Session session = initialized();
    List<JsonObject> malformed =
        List.of(
            new JsonObject().put("id", 1).put("method", "ping"),
            new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", new JsonObject())
                .put("method", "ping"),
            new JsonObject().put("jsonrpc", "2.0").putNull("id").put("method", "ping"),
            new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "ping")
                .put("params", new JsonArray()),
            new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", 5),
            new JsonObject().put("jsonrpc", "2.0"));
    for (JsonObject message : malformed) {
      assertEquals(-32600, code(handle(session, message)), message.encode());
    }
  }

  @Test
  void theLifecycleIsEnforced() throws Exception {
    Session fresh = server.openSession("test");
    assertEquals(-32600, code(handle(fresh, JsonRpc.request(1, "tools/list", null))));
    assertEquals(
        new JsonObject(), handle(fresh, JsonRpc.request(2, "ping", null)).getJsonObject("result"));
    assertEquals(-32602, code(handle(fresh, JsonRpc.request(3, "initialize", new JsonObject()))));
    Session session = initialized();
    assertEquals("2025-06-18", session.protocolVersion());
    assertEquals(
        -32600,
        code(
            handle(
                session,
                JsonRpc.request(
                    4, "initialize", new JsonObject().put("protocolVersion", "2025-06-18")))));
    assertNull(
        handle(session, JsonRpc.notification("notifications/initialized", null)),
        "notifications get no answer");
    assertTrue(session.initialized());
  }

  @Test
  void responsesFromTheClientCompleteServerRequests() throws Exception {
    Session session = initialized();
    ToolCaller caller =
        new ToolCaller(
            sonde.sonde().vertx(),
            new ToolRegistry(),
            1000,
            1000,
            false,
            new RequestStates("", 60_000),
            AuditTrail.off(),
            new FairUse(0, 0));
    var pending = caller.clientRequest(session, channel, "roots/list", new JsonObject());
    JsonObject request = sent.get(sent.size() - 1);
    assertEquals("roots/list", request.getString("method"));
    assertNull(
        handle(
            session,
            new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", request.getValue("id"))
                .put("result", new JsonObject().put("roots", new JsonArray()))));
    assertEquals(
        new JsonArray(),
        pending
            .toCompletionStage()
            .toCompletableFuture()
            .get(5, TimeUnit.SECONDS)
            .getJsonArray("roots"));
    var refused = caller.clientRequest(session, channel, "roots/list", new JsonObject());
    Object id = sent.get(sent.size() - 1).getValue("id");
    handle(
        session,
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", id)
            .put("error", new JsonObject().put("code", -1).put("message", "no roots")));
    assertTrue(
        refused
            .toCompletionStage()
            .toCompletableFuture()
            .handle((r, e) -> e.getMessage())
            .get(5, TimeUnit.SECONDS)
            .contains("no roots"));
  }

  @Test
  void listsArePagedWithOpaqueCursors() {
    List<JsonObject> items = new java.util.ArrayList<>();
    for (int i = 0; i < 7; i++) {
      items.add(new JsonObject().put("n", i));
    }
    JsonObject first = Cursors.page(items, null, 3, "things");
    assertEquals(3, first.getJsonArray("things").size());
    JsonObject second = Cursors.page(items, first.getString("nextCursor"), 3, "things");
    assertEquals(3, second.getJsonArray("things").getJsonObject(0).getInteger("n"));
    JsonObject last = Cursors.page(items, second.getString("nextCursor"), 3, "things");
    assertEquals(1, last.getJsonArray("things").size());
    assertNull(last.getString("nextCursor"));
    McpException bad =
        org.junit.jupiter.api.Assertions.assertThrows(
            McpException.class, () -> Cursors.page(items, "b2s6OTk", 3, "things"));
    assertEquals(-32602, bad.code());
  }

  @Test
  void closingASessionCancelsItsRunningCalls() throws Exception {
    Session session = initialized();
    var call =
        server.handle(
            session,
            JsonRpc.request(
                9,
                "tools/call",
                new JsonObject()
                    .put("name", "test_slow_job")
                    .put("arguments", new JsonObject().put("steps", 200).put("stepMillis", 50))
                    .put("_meta", new JsonObject().put("progressToken", 1))),
            channel);
    long end = System.currentTimeMillis() + 5000;
    while (sent.stream().noneMatch(m -> "notifications/progress".equals(m.getString("method")))
        && System.currentTimeMillis() < end) {
      Thread.sleep(10);
    }
    String jobId =
        sent.stream()
            .filter(m -> "notifications/progress".equals(m.getString("method")))
            .findFirst()
            .orElseThrow()
            .getJsonObject("params")
            .getJsonObject("_meta")
            .getJsonObject("traceStep")
            .getString("jobId");
    server.closeSession(session);
    JsonObject result = call.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertTrue(result.getJsonObject("result").getBoolean("isError"));
    assertEquals("cancelled", sonde.sonde().jobs().get(jobId).status().wireName());
  }
}
