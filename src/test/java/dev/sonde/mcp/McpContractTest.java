package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.McpClient;
import dev.sonde.support.SondeUnderTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * What every transport must do, whatever carries the messages. Subclasses say how to reach a Sonde
 * (in-process or the packaged jar) and over which transport.
 */
public abstract class McpContractTest {
  protected abstract SondeUnderTest sonde();

  protected abstract McpClient connect();

  protected McpClient ready() {
    McpClient client = connect();
    JsonObject init = client.initialize("2025-11-25");
    assertEquals(
        "2025-11-25", init.getJsonObject("result").getString("protocolVersion"), init.encode());
    return client;
  }

  static JsonObject call(
      McpClient client, long id, String tool, JsonObject args, Object progressToken) {
    JsonObject params = new JsonObject().put("name", tool).put("arguments", args);
    if (progressToken != null) {
      params.put("_meta", new JsonObject().put("progressToken", progressToken));
    }
    return client.request(id, "tools/call", params);
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long end = System.currentTimeMillis() + 10_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > end) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void initializeAnswersWithTheClientsVersionWhenSupported() {
    for (String version : List.of("2025-11-25", "2025-06-18", "2025-03-26")) {
      try (McpClient client = connect()) {
        JsonObject result = client.initialize(version).getJsonObject("result");
        assertEquals(version, result.getString("protocolVersion"));
        assertEquals("sonde", result.getJsonObject("serverInfo").getString("name"));
        JsonObject caps = result.getJsonObject("capabilities");
        assertTrue(caps.getJsonObject("tools").getBoolean("listChanged"));
        assertTrue(caps.getJsonObject("resources").getBoolean("subscribe"));
        assertNotNull(
            caps.getJsonObject("tasks")
                .getJsonObject("requests")
                .getJsonObject("tools")
                .getJsonObject("call"));
        assertTrue(result.getString("instructions").contains("get_version"));
      }
    }
  }

  @Test
  void initializeOffersTheNewestVersionForAnUnknownOne() {
    try (McpClient client = connect()) {
      assertEquals(
          "2025-11-25",
          client.initialize("1999-01-01").getJsonObject("result").getString("protocolVersion"));
    }
  }

  @Test
  void pingAndSetLevelAnswerEmptyObjects() {
    try (McpClient client = ready()) {
      assertEquals(new JsonObject(), client.request(1, "ping", null).getJsonObject("result"));
      assertEquals(
          new JsonObject(),
          client
              .request(2, "logging/setLevel", new JsonObject().put("level", "error"))
              .getJsonObject("result"));
      JsonObject bad = client.request(3, "logging/setLevel", new JsonObject().put("level", "loud"));
      assertEquals(-32602, bad.getJsonObject("error").getInteger("code"));
    }
  }

  @Test
  void unknownMethodsAndToolsAreProtocolErrors() {
    try (McpClient client = ready()) {
      assertEquals(
          -32601,
          client.request(1, "tools/explode", null).getJsonObject("error").getInteger("code"));
      JsonObject unknown = call(client, 2, "no_such_tool", new JsonObject(), null);
      assertEquals(-32602, unknown.getJsonObject("error").getInteger("code"));
      assertTrue(unknown.getJsonObject("error").getString("message").contains("no_such_tool"));
      JsonObject badCursor =
          client.request(3, "tools/list", new JsonObject().put("cursor", "garbage"));
      assertEquals(-32602, badCursor.getJsonObject("error").getInteger("code"));
    }
  }

  /** Every page of tools/list, in order. */
  public static JsonArray allTools(McpClient client) {
    JsonArray all = new JsonArray();
    String cursor = null;
    long id = 700_000;
    do {
      JsonObject page =
          client
              .request(
                  id++,
                  "tools/list",
                  cursor == null ? null : new JsonObject().put("cursor", cursor))
              .getJsonObject("result");
      all.addAll(page.getJsonArray("tools"));
      cursor = page.getString("nextCursor");
    } while (cursor != null);
    return all;
  }

  @Test
  void toolsListIsBuiltFromTheSpecs() {
    try (McpClient client = ready()) {
      JsonArray tools = allTools(client);
      List<String> names = tools.stream().map(t -> ((JsonObject) t).getString("name")).toList();
      assertTrue(
          names.containsAll(
              List.of("get_version", "health_check", "debug_mcp_status", "test_slow_job")),
          names.toString());
      for (Object t : tools) {
        JsonObject tool = (JsonObject) t;
        assertFalse(tool.getString("description", "").isBlank(), tool.encode());
        assertEquals("object", tool.getJsonObject("inputSchema").getString("type"), tool.encode());
      }
      JsonObject slow =
          (JsonObject)
              tools.stream()
                  .filter(t -> "test_slow_job".equals(((JsonObject) t).getString("name")))
                  .findFirst()
                  .orElseThrow();
      assertEquals("optional", slow.getJsonObject("execution").getString("taskSupport"));
    }
  }

  @Test
  void getVersionReportsSondeJavaVertxAndTheEmbeddedEngines() {
    try (McpClient client = ready()) {
      JsonObject result =
          call(client, 1, "get_version", new JsonObject(), null).getJsonObject("result");
      JsonObject versions = result.getJsonObject("structuredContent");
      assertEquals("5.0.7", versions.getString("vertx"));
      assertFalse(versions.getString("sonde").isBlank());
      assertTrue(versions.getString("java").startsWith("17"), versions.encode());
      JsonObject engines = versions.getJsonObject("engines");
      for (String engine : List.of("duckdb", "h2", "sqlite")) {
        assertTrue(engines.getString(engine, "").matches("\\d+(\\.\\d+)+"), engines.encode());
      }
      assertEquals(
          versions,
          new JsonObject(result.getJsonArray("content").getJsonObject(0).getString("text")));
    }
  }

  @Test
  void healthCheckAndStatusSeeEveryFamily() {
    try (McpClient client = ready()) {
      JsonObject health =
          call(client, 1, "health_check", new JsonObject(), null)
              .getJsonObject("result")
              .getJsonObject("structuredContent");
      assertEquals("ok", health.getString("status"), health.encode());
      for (String family : List.of("system", "conformance", "testjobs")) {
        assertTrue(health.getJsonObject("families").getJsonObject(family).getBoolean("ok"), family);
      }
      JsonObject status =
          call(client, 2, "debug_mcp_status", new JsonObject(), null)
              .getJsonObject("result")
              .getJsonObject("structuredContent");
      int listed = allTools(client).size();
      assertEquals(listed, status.getInteger("toolCount"));
      assertTrue(status.getJsonObject("families").getJsonArray("system").contains("get_version"));
      assertTrue(status.getInteger("sessionCount") >= 1);
      assertTrue(status.getJsonObject("heap").getLong("maxMb") > 0);
    }
  }

  @Test
  void badArgumentsAreToolErrorsNamingTheFieldAndTheRule() {
    try (McpClient client = ready()) {
      JsonObject wrongType =
          call(client, 1, "test_slow_job", new JsonObject().put("steps", "many"), null)
              .getJsonObject("result");
      assertTrue(wrongType.getBoolean("isError"));
      String text = wrongType.getJsonArray("content").getJsonObject(0).getString("text");
      assertTrue(text.contains("field 'steps'") && text.contains("rule: type"), text);
      JsonObject missing =
          call(client, 2, "test_slow_job", new JsonObject(), null).getJsonObject("result");
      assertTrue(
          missing.getJsonArray("content").getJsonObject(0).getString("text").contains("required"),
          missing.encode());
      JsonObject tooBig =
          call(client, 3, "test_slow_job", new JsonObject().put("steps", 5000), null)
              .getJsonObject("result");
      assertTrue(
          tooBig.getJsonArray("content").getJsonObject(0).getString("text").contains("maximum"),
          tooBig.encode());
      JsonObject extra =
          call(client, 4, "test_slow_job", new JsonObject().put("steps", 1).put("stepz", 1), null)
              .getJsonObject("result");
      assertTrue(
          extra
              .getJsonArray("content")
              .getJsonObject(0)
              .getString("text")
              .contains("additionalProperties"),
          extra.encode());
    }
  }

  @Test
  void jobStepsArriveAsMonotonicProgressWithTheClientsToken() {
    try (McpClient client = ready()) {
      JsonObject result =
          call(
                  client,
                  1,
                  "test_slow_job",
                  new JsonObject().put("steps", 4).put("stepMillis", 10),
                  "tok-7")
              .getJsonObject("result");
      assertEquals(4, result.getJsonObject("structuredContent").getInteger("steps"));
      List<JsonObject> progress = client.received("notifications/progress");
      assertTrue(progress.size() >= 4, progress.toString());
      double last = -1;
      for (JsonObject note : progress) {
        JsonObject params = note.getJsonObject("params");
        assertEquals("tok-7", params.getValue("progressToken"));
        assertTrue(params.getDouble("progress") >= last, progress.toString());
        last = params.getDouble("progress");
        assertNotNull(params.getJsonObject("_meta").getJsonObject("traceStep").getString("step"));
      }
      JsonObject step4 =
          progress.stream()
              .map(n -> n.getJsonObject("params"))
              .filter(p -> p.getDouble("progress") == 4.0)
              .findFirst()
              .orElseThrow();
      assertEquals(4.0, step4.getDouble("total"));
      assertTrue(step4.getString("message").contains("step 4 of 4"));
    }
  }

  @Test
  void numericProgressTokensAreEchoedAsNumbersAndNoTokenMeansNoProgress() {
    try (McpClient client = ready()) {
      call(client, 1, "test_slow_job", new JsonObject().put("steps", 2).put("stepMillis", 0), null);
      assertEquals(List.of(), client.received("notifications/progress"));
      call(client, 2, "test_slow_job", new JsonObject().put("steps", 2).put("stepMillis", 0), 42);
      List<JsonObject> progress = client.received("notifications/progress");
      assertFalse(progress.isEmpty());
      progress.forEach(p -> assertEquals(42, p.getJsonObject("params").getValue("progressToken")));
    }
  }

  @Test
  void logMessagesHonourTheSessionsLevel() {
    try (McpClient client = ready()) {
      client.request(1, "logging/setLevel", new JsonObject().put("level", "warning"));
      call(client, 2, "test_slow_job", new JsonObject().put("steps", 2).put("stepMillis", 0), null);
      assertEquals(List.of(), client.received("notifications/message"));
      client.request(3, "logging/setLevel", new JsonObject().put("level", "info"));
      call(client, 4, "test_slow_job", new JsonObject().put("steps", 2).put("stepMillis", 0), null);
      List<JsonObject> info = client.received("notifications/message");
      assertEquals(2, info.size(), info.toString());
      assertEquals("info", info.get(0).getJsonObject("params").getString("level"));
      assertEquals("test_slow_job", info.get(0).getJsonObject("params").getString("logger"));
      client.request(5, "logging/setLevel", new JsonObject().put("level", "debug"));
      call(client, 6, "test_slow_job", new JsonObject().put("steps", 2).put("stepMillis", 0), null);
      assertEquals(6, client.received("notifications/message").size());
    }
  }

  @Test
  void aToolErrorInsideAJobIsAnErrorResult() {
    try (McpClient client = ready()) {
      JsonObject result =
          call(
                  client,
                  1,
                  "test_slow_job",
                  new JsonObject().put("steps", 3).put("failAt", 2).put("stepMillis", 0),
                  null)
              .getJsonObject("result");
      assertTrue(result.getBoolean("isError"));
      assertTrue(
          result
              .getJsonArray("content")
              .getJsonObject(0)
              .getString("text")
              .contains("step 2 failed"));
    }
  }

  @Test
  void cancelledNotificationStopsTheRunningJob() throws Exception {
    try (McpClient client = ready()) {
      JsonObject params =
          new JsonObject()
              .put("name", "test_slow_job")
              .put("arguments", new JsonObject().put("steps", 200).put("stepMillis", 50))
              .put("_meta", new JsonObject().put("progressToken", "cancel-me"));
      CompletableFuture<JsonObject> pending = client.send(77, "tools/call", params);
      await("first progress", () -> !client.received("notifications/progress").isEmpty());
      String jobId =
          client
              .received("notifications/progress")
              .get(0)
              .getJsonObject("params")
              .getJsonObject("_meta")
              .getJsonObject("traceStep")
              .getString("jobId");
      client.notify(
          "notifications/cancelled",
          new JsonObject().put("requestId", 77).put("reason", "test says stop"));
      await(
          "job cancelled",
          () -> "cancelled".equals(sonde().api("/api/jobs/" + jobId).getString("status")));
      JsonObject job = sonde().api("/api/jobs/" + jobId);
      assertTrue(job.getLong("steps") < 100, job.encode());
      assertTrue(job.getString("message").contains("test says stop"), job.encode());
      // the server sends no response to a cancelled request; the session keeps working
      assertEquals(new JsonObject(), client.request(78, "ping", null).getJsonObject("result"));
      JsonObject answer = pending.isDone() ? pending.get() : null;
      assertTrue(
          answer == null || !answer.containsKey("result"),
          "a cancelled call must not answer with a result");
    }
  }

  @Test
  void aTaskRunsToCompletionAndIsPolled() throws Exception {
    try (McpClient client = ready()) {
      JsonObject created =
          client
              .request(
                  1,
                  "tools/call",
                  new JsonObject()
                      .put("name", "test_slow_job")
                      .put("arguments", new JsonObject().put("steps", 3).put("stepMillis", 30))
                      .put("task", new JsonObject().put("ttl", 60_000)))
              .getJsonObject("result");
      JsonObject task = created.getJsonObject("task");
      String taskId = task.getString("taskId");
      assertEquals("working", task.getString("status"));
      long[] id = {10};
      await(
          "task completed",
          () ->
              "completed"
                  .equals(
                      client
                          .request(id[0]++, "tasks/get", new JsonObject().put("taskId", taskId))
                          .getJsonObject("result")
                          .getString("status")));
      JsonObject result =
          client
              .request(20, "tasks/result", new JsonObject().put("taskId", taskId))
              .getJsonObject("result");
      assertEquals(3, result.getJsonObject("structuredContent").getInteger("steps"));
      assertEquals(
          taskId,
          result
              .getJsonObject("_meta")
              .getJsonObject("io.modelcontextprotocol/related-task")
              .getString("taskId"));
      JsonArray listed =
          client.request(21, "tasks/list", null).getJsonObject("result").getJsonArray("tasks");
      assertTrue(
          listed.stream().anyMatch(t -> taskId.equals(((JsonObject) t).getString("taskId"))));
      assertEquals(
          -32602,
          client
              .request(22, "tasks/cancel", new JsonObject().put("taskId", taskId))
              .getJsonObject("error")
              .getInteger("code"));
      assertEquals(
          -32602,
          client
              .request(23, "tasks/get", new JsonObject().put("taskId", "nope"))
              .getJsonObject("error")
              .getInteger("code"));
    }
  }

  @Test
  void aTaskCanBeCancelledAndItsJobStops() throws Exception {
    try (McpClient client = ready()) {
      String taskId = startSlowTask(client, 200);
      Thread.sleep(150);
      JsonObject cancelled =
          client
              .request(2, "tasks/cancel", new JsonObject().put("taskId", taskId))
              .getJsonObject("result");
      assertEquals("cancelled", cancelled.getString("status"));
      await(
          "job cancelled",
          () -> "cancelled".equals(sonde().api("/api/jobs/" + taskId).getString("status")));
      assertEquals(
          "cancelled",
          client
              .request(3, "tasks/get", new JsonObject().put("taskId", taskId))
              .getJsonObject("result")
              .getString("status"));
      JsonObject result =
          client
              .send(4, "tasks/result", new JsonObject().put("taskId", taskId))
              .get(10, TimeUnit.SECONDS)
              .getJsonObject("result");
      assertTrue(result.getBoolean("isError"), result.encode());
    }
  }

  @Test
  void aTaskWhoseJobIsStoppedFromTheJobViewIsCancelled() throws Exception {
    try (McpClient client = ready()) {
      String taskId = startSlowTask(client, 600);
      await(
          "the task's job in the job view",
          () -> sonde().api("/api/jobs/" + taskId).getInteger("httpStatus") == 200);
      assertEquals(202, sonde().api("DELETE", "/api/jobs/" + taskId).statusCode());
      await(
          "task cancelled",
          () ->
              "cancelled"
                  .equals(
                      client
                          .request(2, "tasks/get", new JsonObject().put("taskId", taskId))
                          .getJsonObject("result")
                          .getString("status")));
    }
  }

  /** Starts {@code test_slow_job} of {@code steps} 50 ms steps as a 2025-11-25 task; its id. */
  private static String startSlowTask(McpClient client, int steps) {
    return client
        .request(
            1,
            "tools/call",
            new JsonObject()
                .put("name", "test_slow_job")
                .put("arguments", new JsonObject().put("steps", steps).put("stepMillis", 50))
                .put("task", new JsonObject()))
        .getJsonObject("result")
        .getJsonObject("task")
        .getString("taskId");
  }

  @Test
  void toolsThatForbidTasksRefuseThem() {
    try (McpClient client = ready()) {
      JsonObject answer =
          client.request(
              1,
              "tools/call",
              new JsonObject().put("name", "get_version").put("task", new JsonObject()));
      assertEquals(-32601, answer.getJsonObject("error").getInteger("code"));
    }
  }

  @Test
  void conformanceResourcesAndPromptsAreServedWithTheFlag() {
    try (McpClient client = ready()) {
      JsonObject text =
          client
              .request(1, "resources/read", new JsonObject().put("uri", "test://static-text"))
              .getJsonObject("result");
      assertEquals(
          "text/plain", text.getJsonArray("contents").getJsonObject(0).getString("mimeType"));
      JsonObject missing =
          client.request(2, "resources/read", new JsonObject().put("uri", "test://nothing"));
      assertEquals(-32002, missing.getJsonObject("error").getInteger("code"));
      JsonObject completion =
          client
              .request(
                  3,
                  "completion/complete",
                  new JsonObject()
                      .put(
                          "ref",
                          new JsonObject()
                              .put("type", "ref/prompt")
                              .put("name", "test_prompt_with_arguments"))
                      .put("argument", new JsonObject().put("name", "arg1").put("value", "par")))
              .getJsonObject("result")
              .getJsonObject("completion");
      assertEquals(
          new JsonArray().add("paris").add("park").add("party"), completion.getJsonArray("values"));
    }
  }
}
