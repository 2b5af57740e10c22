package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A call has a deadline; a task is the way to ask for more: it may work as long as it is kept. With
 * a one-second call deadline, a three-second job answers a plain call with a timeout and completes
 * as a task in both protocol eras.
 */
class TaskDeadlineTest {
  private static final JsonObject THREE_SECONDS =
      new JsonObject().put("steps", 6).put("stepMillis", 500);
  static InProcessSonde sonde;

  @BeforeAll
  static void start() {
    sonde = new InProcessSonde(Map.of("mcp.toolTimeoutSeconds", "1"));
  }

  @AfterAll
  static void stop() {
    sonde.close();
  }

  static JsonObject slowJob() {
    return new JsonObject().put("name", "test_slow_job").put("arguments", THREE_SECONDS.copy());
  }

  static void awaitStatus(String expected, Supplier<String> status) throws InterruptedException {
    long end = System.currentTimeMillis() + 60_000;
    String seen = status.get();
    while (!expected.equals(seen) && System.currentTimeMillis() < end) {
      Thread.sleep(50);
      seen = status.get();
    }
    assertEquals(expected, seen);
  }

  @Test
  void aPlainCallStopsAtItsDeadline() {
    HttpMcpClient client = HttpMcpClient.modern(sonde.port());
    JsonObject result = client.request(1, "tools/call", McpClient.modern(slowJob()));
    JsonObject answer = result.getJsonObject("result");
    assertEquals(true, answer.getBoolean("isError"), result.encode());
    assertTrue(answer.encode().contains("timed out after 1 s"), answer.encode());
  }

  @Test
  void aLegacyTaskOutlivesTheCallDeadline() throws Exception {
    try (McpClient client = sonde.connect("http")) {
      client.initialize("2025-11-25");
      String taskId =
          client
              .request(1, "tools/call", slowJob().put("task", new JsonObject().put("ttl", 60_000)))
              .getJsonObject("result")
              .getJsonObject("task")
              .getString("taskId");
      long[] id = {10};
      awaitStatus(
          "completed",
          () ->
              client
                  .request(id[0]++, "tasks/get", new JsonObject().put("taskId", taskId))
                  .getJsonObject("result")
                  .getString("status"));
      JsonObject result =
          client
              .request(2, "tasks/result", new JsonObject().put("taskId", taskId))
              .getJsonObject("result");
      assertEquals(6, result.getJsonObject("structuredContent").getInteger("steps"));
    }
  }

  @Test
  void aModernTaskOutlivesTheCallDeadline() throws Exception {
    JsonObject tasks = MultiRoundTripTest.CAN_POLL_TASKS;
    HttpMcpClient client = HttpMcpClient.modern(sonde.port());
    JsonObject created =
        client
            .request(1, "tools/call", MultiRoundTripTest.withCapabilities(slowJob(), tasks))
            .getJsonObject("result");
    assertEquals("task", created.getString("resultType"), created.encode());
    String taskId = created.getString("taskId");
    JsonObject[] last = new JsonObject[1];
    long[] id = {10};
    awaitStatus(
        "completed",
        () -> {
          JsonObject response =
              client.request(
                  id[0]++,
                  "tasks/get",
                  MultiRoundTripTest.withCapabilities(
                      new JsonObject().put("taskId", taskId), tasks));
          last[0] = response.getJsonObject("result");
          return last[0] == null ? response.encode() : last[0].getString("status");
        });
    assertEquals(
        6, last[0].getJsonObject("result").getJsonObject("structuredContent").getInteger("steps"));
  }
}
