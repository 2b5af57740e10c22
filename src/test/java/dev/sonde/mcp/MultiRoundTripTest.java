package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.McpClient;
import dev.sonde.support.SharedSonde;
import dev.sonde.support.WebSocketMcpClient;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Tools that need the client's input answer with an input-required result (MCP 2026-07-28's
 * multi-round-trip requests): a modern client retries with its answers and the sealed state; on a
 * legacy session the server asks the client itself. The fixtures of the conformance family stand in
 * for any tool that asks.
 */
class MultiRoundTripTest {
  private static final JsonObject ALICE =
      new JsonObject()
          .put("action", "accept")
          .put("content", new JsonObject().put("name", "Alice"));

  /** The client capabilities of a client that declares the tasks extension. */
  static final JsonObject CAN_POLL_TASKS = McpClient.CAN_POLL_TASKS;

  static JsonObject call(String tool, JsonObject extra) {
    return new JsonObject()
        .put("name", tool)
        .put("arguments", new JsonObject())
        .mergeIn(extra == null ? new JsonObject() : extra);
  }

  static JsonObject withCapabilities(JsonObject params, JsonObject capabilities) {
    JsonObject modern = McpClient.modern(params);
    modern.getJsonObject("_meta").put("io.modelcontextprotocol/clientCapabilities", capabilities);
    return modern;
  }

  @Test
  void aModernClientAnswersOnARetryAndGetsTheResult() {
    HttpMcpClient client = HttpMcpClient.modern(SharedSonde.get().port());
    JsonObject first =
        client
            .request(1, "tools/call", call("test_input_required_result_elicitation", null))
            .getJsonObject("result");
    assertEquals("input_required", first.getString("resultType"), first.encode());
    assertEquals(
        "elicitation/create",
        first.getJsonObject("inputRequests").getJsonObject("user_name").getString("method"));
    JsonObject retry =
        client
            .request(
                2,
                "tools/call",
                call(
                    "test_input_required_result_elicitation",
                    new JsonObject()
                        .put("inputResponses", new JsonObject().put("user_name", ALICE))))
            .getJsonObject("result");
    assertEquals("complete", retry.getString("resultType"));
    assertTrue(retry.encode().contains("Hello, Alice!"), retry.encode());
  }

  @Test
  void eachRoundSealsItsOwnStateAndTheLastCompletes() {
    HttpMcpClient client = HttpMcpClient.modern(SharedSonde.get().port());
    String tool = "test_input_required_result_multi_round";
    JsonObject r1 = client.request(1, "tools/call", call(tool, null)).getJsonObject("result");
    String state1 = r1.getString("requestState");
    assertNotNull(state1, r1.encode());
    // the state is sealed, not the tool's memory in the clear
    assertFalse(state1.contains("round"), state1);
    JsonObject r2 =
        client
            .request(
                2,
                "tools/call",
                call(
                    tool,
                    new JsonObject()
                        .put("inputResponses", new JsonObject().put("step1", ALICE))
                        .put("requestState", state1)))
            .getJsonObject("result");
    assertEquals("input_required", r2.getString("resultType"), r2.encode());
    assertNotEquals(state1, r2.getString("requestState"));
    JsonObject blue =
        new JsonObject()
            .put("action", "accept")
            .put("content", new JsonObject().put("color", "blue"));
    JsonObject r3 =
        client
            .request(
                3,
                "tools/call",
                call(
                    tool,
                    new JsonObject()
                        .put("inputResponses", new JsonObject().put("step2", blue))
                        .put("requestState", r2.getString("requestState"))))
            .getJsonObject("result");
    assertTrue(r3.encode().contains("Alice likes blue"), r3.encode());
  }

  @Test
  void aTamperedOrBorrowedStateIsRefused() {
    HttpMcpClient client = HttpMcpClient.modern(SharedSonde.get().port());
    String tool = "test_input_required_result_request_state";
    String state =
        client
            .request(1, "tools/call", call(tool, null))
            .getJsonObject("result")
            .getString("requestState");
    JsonObject ok =
        new JsonObject().put("action", "accept").put("content", new JsonObject().put("ok", true));
    // one flipped character of the payload, the MAC cut off, or another tool's state
    String flipped =
        state.substring(0, 3) + (state.charAt(3) == 'A' ? 'B' : 'A') + state.substring(4);
    for (String[] attempt :
        new String[][] {
          {tool, flipped},
          {tool, state.substring(0, state.indexOf('.'))},
          {tool, state + "-TAMPERED"},
          {"test_input_required_result_tampered_state", state}
        }) {
      JsonObject answer =
          client.request(
              2,
              "tools/call",
              call(
                  attempt[0],
                  new JsonObject()
                      .put("inputResponses", new JsonObject().put("confirm", ok))
                      .put("requestState", attempt[1])));
      assertNotNull(answer.getJsonObject("error"), attempt[0] + ": " + answer.encode());
      assertEquals(-32602, answer.getJsonObject("error").getInteger("code"));
    }
    // the state it was given back whole is accepted
    JsonObject honest =
        client
            .request(
                3,
                "tools/call",
                call(
                    tool,
                    new JsonObject()
                        .put("inputResponses", new JsonObject().put("confirm", ok))
                        .put("requestState", state)))
            .getJsonObject("result");
    assertTrue(honest.encode().contains("state-ok"), honest.encode());
  }

  @Test
  void aConfirmationCannotBeCarriedOverToACallWithOtherArguments() {
    HttpMcpClient client = HttpMcpClient.modern(SharedSonde.get().port());
    JsonObject asked =
        client
            .request(
                1,
                "tools/call",
                call("confirm_delete", null)
                    .put("arguments", new JsonObject().put("filename", "scratch.txt")))
            .getJsonObject("result");
    String state = asked.getString("requestState");
    assertNotNull(state, asked.encode());
    JsonObject yes =
        new JsonObject()
            .put("action", "accept")
            .put("content", new JsonObject().put("confirm", true));
    JsonObject retry =
        new JsonObject()
            .put("inputResponses", new JsonObject().put("confirm", yes))
            .put("requestState", state);
    // the user said yes to scratch.txt: the yes must not delete another file
    JsonObject carried =
        client.request(
            2,
            "tools/call",
            call("confirm_delete", retry.copy())
                .put("arguments", new JsonObject().put("filename", "precious.txt")));
    assertNotNull(carried.getJsonObject("error"), carried.encode());
    assertEquals(-32602, carried.getJsonObject("error").getInteger("code"), carried.encode());
    JsonObject kept =
        client
            .request(
                3,
                "tools/call",
                call("confirm_delete", retry.copy())
                    .put("arguments", new JsonObject().put("filename", "scratch.txt")))
            .getJsonObject("result");
    assertTrue(kept.encode().contains("deleted scratch.txt"), kept.encode());
  }

  @Test
  void aToolThatNeedsACapabilityTheRequestLacksIsRefusedWithWhatToDeclare() throws Exception {
    HttpMcpClient client = HttpMcpClient.modern(SharedSonde.get().port());
    JsonObject message =
        McpClient.message(
            1L,
            "tools/call",
            withCapabilities(call("test_missing_capability", null), new JsonObject()));
    HttpResponse<String> refused = client.raw(client.post(message).build());
    assertEquals(400, refused.statusCode(), refused.body());
    JsonObject error = new JsonObject(refused.body()).getJsonObject("error");
    assertEquals(-32021, error.getInteger("code"));
    assertEquals(
        new JsonObject().put("sampling", new JsonObject()),
        error.getJsonObject("data").getJsonObject("requiredCapabilities"));
    // and asks only through what the request declared
    JsonObject onlySampling =
        client
            .request(
                2,
                "tools/call",
                withCapabilities(
                    call("test_input_required_result_capabilities", null),
                    new JsonObject().put("sampling", new JsonObject())))
            .getJsonObject("result");
    assertEquals(
        "sampling/createMessage",
        onlySampling.getJsonObject("inputRequests").getJsonObject("ask").getString("method"));
  }

  @Test
  void logsReachOnlyARequestThatAskedForThem() {
    HttpMcpClient quiet = HttpMcpClient.modern(SharedSonde.get().port());
    quiet.request(1, "tools/call", call("test_logging_tool", null));
    assertTrue(quiet.received("notifications/message").isEmpty());
    HttpMcpClient chatty = HttpMcpClient.modern(SharedSonde.get().port());
    JsonObject params = McpClient.modern(call("test_logging_tool", null));
    params.getJsonObject("_meta").put("io.modelcontextprotocol/logLevel", "info");
    chatty.request(2, "tools/call", params);
    assertEquals(2, chatty.received("notifications/message").size(), chatty.received().toString());
  }

  @Test
  void onALegacySessionTheServerAsksTheClientItselfAndRunsTheToolAgain() throws Exception {
    try (WebSocketMcpClient client = new WebSocketMcpClient(SharedSonde.get().port())) {
      client.request(
          0,
          "initialize",
          new JsonObject()
              .put("protocolVersion", "2025-11-25")
              .put("capabilities", new JsonObject().put("elicitation", new JsonObject()))
              .put("clientInfo", new JsonObject().put("name", "sonde-tests").put("version", "1")));
      client.notify("notifications/initialized", null);
      CompletableFuture<JsonObject> pending =
          client.send(5, "tools/call", call("test_input_required_result_elicitation", null));
      JsonObject asked = awaitRequest(client, "elicitation/create");
      assertEquals("What is your name?", asked.getJsonObject("params").getString("message"));
      client
          .socket()
          .sendText(
              new JsonObject()
                  .put("jsonrpc", "2.0")
                  .put("id", asked.getValue("id"))
                  .put("result", ALICE)
                  .encode(),
              true);
      JsonObject response = pending.get(60, TimeUnit.SECONDS);
      JsonObject result = response.getJsonObject("result");
      assertNotNull(result, response.encode());
      assertTrue(result.encode().contains("Hello, Alice!"), result.encode());
      assertFalse(result.containsKey("resultType"), "a legacy result keeps the legacy shape");
    }
  }

  @Test
  void aLegacySessionWithoutTheCapabilityIsToldWhatIsMissing() {
    try (WebSocketMcpClient client = new WebSocketMcpClient(SharedSonde.get().port())) {
      client.initialize("2025-11-25");
      JsonObject result =
          client
              .request(6, "tools/call", call("test_input_required_result_elicitation", null))
              .getJsonObject("result");
      assertTrue(result.getBoolean("isError"), result.encode());
      assertTrue(result.encode().contains("'elicitation' capability"), result.encode());
    }
  }

  @Test
  void aModernRequestOverWebSocketNeedsNoHandshake() {
    try (WebSocketMcpClient client = new WebSocketMcpClient(SharedSonde.get().port())) {
      JsonObject tools =
          client.request(1, "tools/list", McpClient.modern(null)).getJsonObject("result");
      assertEquals("complete", tools.getString("resultType"), tools.encode());
      assertTrue(tools.getJsonArray("tools").size() > 20);
    }
  }

  @Test
  void aClientThatCanPollGetsATaskItCanReadAndCancelFromAnotherConnection() throws Exception {
    JsonObject tasks = CAN_POLL_TASKS;
    HttpMcpClient starter = HttpMcpClient.modern(SharedSonde.get().port());
    JsonObject created =
        starter
            .request(
                1,
                "tools/call",
                withCapabilities(
                    call("slow_compute", null)
                        .put("arguments", new JsonObject().put("seconds", 60).put("label", "t")),
                    tasks))
            .getJsonObject("result");
    assertEquals("task", created.getString("resultType"), created.encode());
    String taskId = created.getString("taskId");
    // any connection of the same account reads it: the task is not the request's
    try (WebSocketMcpClient other = new WebSocketMcpClient(SharedSonde.get().port())) {
      JsonObject read =
          other
              .request(
                  2, "tasks/get", withCapabilities(new JsonObject().put("taskId", taskId), tasks))
              .getJsonObject("result");
      assertEquals("working", read.getString("status"), read.encode());
      JsonObject withoutExtension =
          other.request(3, "tasks/get", McpClient.modern(new JsonObject().put("taskId", taskId)));
      assertEquals(-32021, withoutExtension.getJsonObject("error").getInteger("code"));
      other.request(
          4, "tasks/cancel", withCapabilities(new JsonObject().put("taskId", taskId), tasks));
      assertEquals(
          "cancelled",
          polled(other, taskId, t -> t.getString("status").equals("cancelled"))
              .getString("status"));
    }
    // a tool that runs only as a task refuses a client that cannot poll
    JsonObject refused =
        starter.request(6, "tools/call", McpClient.modern(call("failing_job", null)));
    assertEquals(-32021, refused.getJsonObject("error").getInteger("code"), refused.encode());
  }

  /**
   * A polled task says the step its job reached, the job view shows the same job under the task's
   * id, and stopping it there ends the task: the two views are of one job.
   */
  @Test
  void aPolledTaskSaysItsStepAndTheJobViewSeesAndStopsTheSameJob() throws Exception {
    JsonObject tasks = CAN_POLL_TASKS;
    int port = SharedSonde.get().port();
    HttpMcpClient client = HttpMcpClient.modern(port);
    JsonObject created =
        client
            .request(
                1,
                "tools/call",
                withCapabilities(
                    call("test_slow_job", null)
                        .put("arguments", new JsonObject().put("steps", 600).put("stepMillis", 50)),
                    tasks))
            .getJsonObject("result");
    String taskId = created.getString("taskId");
    assertNotNull(taskId, created.encode());
    JsonObject read =
        polled(client, taskId, t -> t.getString("statusMessage", "").startsWith("step-"));
    assertEquals("working", read.getString("status"), read.encode());
    assertTrue(
        read.getString("statusMessage").matches("step-\\d+: step \\d+ of 600"), read.encode());
    JsonObject job = SharedSonde.get().api("/api/jobs/" + taskId);
    assertEquals("test_slow_job", job.getString("tool"), job.encode());
    HttpResponse<String> stopped = SharedSonde.get().api("DELETE", "/api/jobs/" + taskId);
    assertEquals(202, stopped.statusCode(), stopped.body());
    assertEquals(
        "cancelled",
        polled(client, taskId, t -> !t.getString("status").equals("working")).getString("status"));
  }

  /**
   * The task as {@code tasks/get} shows it once {@code until} holds, or as it stands after a minute
   * of polling (the caller's assertion then says what was wrong).
   */
  private static JsonObject polled(McpClient client, String taskId, Predicate<JsonObject> until)
      throws InterruptedException {
    long end = System.currentTimeMillis() + 60_000;
    for (long id = 1000; ; id++) {
      JsonObject answer =
          client.request(
              id,
              "tasks/get",
              withCapabilities(new JsonObject().put("taskId", taskId), CAN_POLL_TASKS));
      JsonObject task = answer.getJsonObject("result");
      assertNotNull(task, answer.encode());
      if (until.test(task) || System.currentTimeMillis() > end) {
        return task;
      }
      Thread.sleep(20);
    }
  }

  @Test
  void aConnectionHoldsABoundedNumberOfListenStreamsAndCancellingOneFreesIt() throws Exception {
    try (WebSocketMcpClient client = new WebSocketMcpClient(SharedSonde.get().port())) {
      JsonObject listen =
          McpClient.modern(
              new JsonObject()
                  .put("notifications", new JsonObject().put("toolsListChanged", true)));
      for (long id = 1; id <= Listeners.MAX_PER_CONNECTION; id++) {
        client.send(id, "subscriptions/listen", listen);
      }
      long end = System.currentTimeMillis() + 60_000;
      while (client.received("notifications/subscriptions/acknowledged").size()
              < Listeners.MAX_PER_CONNECTION
          && System.currentTimeMillis() < end) {
        Thread.sleep(10);
      }
      JsonObject refused = client.request(100, "subscriptions/listen", listen);
      assertEquals(-32000, refused.getJsonObject("error").getInteger("code"), refused.encode());
      client.notify("notifications/cancelled", new JsonObject().put("requestId", 1));
      CompletableFuture<JsonObject> again = client.send(101, "subscriptions/listen", listen);
      end = System.currentTimeMillis() + 60_000;
      while (client.received("notifications/subscriptions/acknowledged").size()
              <= Listeners.MAX_PER_CONNECTION
          && System.currentTimeMillis() < end) {
        Thread.sleep(10);
      }
      assertFalse(again.isDone(), "the freed slot opened a stream: " + again.getNow(null));
      assertEquals(
          Listeners.MAX_PER_CONNECTION + 1,
          client.received("notifications/subscriptions/acknowledged").size());
    }
  }

  static JsonObject awaitRequest(McpClient client, String method) throws Exception {
    long end = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < end) {
      List<JsonObject> seen = client.received(method);
      if (!seen.isEmpty()) {
        return seen.get(0);
      }
      Thread.sleep(10);
    }
    throw new AssertionError("the server never sent " + method + ": " + client.received());
  }
}
