package dev.sonde.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fair use between accounts: an account at its limit of long calls is told so on the next one,
 * while another account's calls still run; a finished call frees its place.
 */
class FairUseTest {
  static final JsonObject TASKS =
      new JsonObject()
          .put(
              "extensions",
              new JsonObject().put("io.modelcontextprotocol/tasks", new JsonObject()));
  static InProcessSonde sonde;
  static String alice;
  static String bob;
  static long ids = 1;

  @BeforeAll
  static void start() throws IOException {
    Path dir = Files.createTempDirectory("sonde-fair-");
    Path tokens = dir.resolve("tokens.json");
    ApiTokens file = new ApiTokens(tokens);
    alice = file.create("alice", List.of("general"), null).token();
    bob = file.create("bob", List.of("general"), null).token();
    sonde =
        new InProcessSonde(
            Map.of(
                "auth.mode",
                "tokens",
                "auth.tokensFile",
                tokens.toString(),
                "auth.limits.maxConcurrentJobs",
                "2",
                "auth.limits.maxSessions",
                "3",
                "data.dir",
                dir.toString()));
  }

  @AfterAll
  static void stop() {
    sonde.close();
  }

  /** Starts a long job as a task; its task id. */
  static String startJob(String token) {
    JsonObject created =
        HttpMcpClient.modern(sonde.port())
            .bearer(token)
            .request(
                ids++,
                "tools/call",
                McpClient.modernWithTasks(
                    new JsonObject()
                        .put("name", "test_slow_job")
                        .put(
                            "arguments",
                            new JsonObject().put("steps", 1000).put("stepMillis", 100))))
            .getJsonObject("result");
    String taskId = created.getString("taskId");
    assertNotNull(taskId, created.encode());
    return taskId;
  }

  /** The task once it left {@code working}, or still working after the deadline. */
  static JsonObject task(String token, String taskId, boolean untilDone) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      JsonObject task =
          HttpMcpClient.modern(sonde.port())
              .bearer(token)
              .request(
                  ids++,
                  "tasks/get",
                  McpClient.modernWithTasks(new JsonObject().put("taskId", taskId)))
              .getJsonObject("result");
      if (!untilDone
          || !"working".equals(task.getString("status"))
          || System.nanoTime() > deadline) {
        return task;
      }
      Thread.sleep(50);
    }
  }

  static void cancel(String token, String taskId) {
    HttpMcpClient.modern(sonde.port())
        .bearer(token)
        .request(
            ids++,
            "tasks/cancel",
            McpClient.modernWithTasks(new JsonObject().put("taskId", taskId)));
  }

  /** No one account can take every session: its fourth is refused, another account's opens. */
  @Test
  void anAccountHoldsAtMostItsSessions() {
    List<HttpMcpClient> opened = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      HttpMcpClient client = new HttpMcpClient(sonde.port()).bearer(alice);
      client.initialize("2025-11-25");
      opened.add(client);
    }
    JsonObject fourth =
        new HttpMcpClient(sonde.port())
            .bearer(alice)
            .request(
                ids++,
                "initialize",
                new JsonObject()
                    .put("protocolVersion", "2025-11-25")
                    .put("capabilities", new JsonObject())
                    .put("clientInfo", new JsonObject().put("name", "t").put("version", "1")));
    assertTrue(
        fourth.encode().contains("account alice holds its limit of 3 sessions"), fourth.encode());
    HttpMcpClient bobs = new HttpMcpClient(sonde.port()).bearer(bob);
    bobs.initialize("2025-11-25");
    assertNotNull(bobs.sessionId(), "bob is not alice");
    // stateless requests need no session: alice still works in the 2026-07-28 revision
    assertNotNull(
        HttpMcpClient.modern(sonde.port())
            .bearer(alice)
            .request(ids++, "tools/list", new JsonObject())
            .getJsonObject("result"));
    opened.get(0).close();
    HttpMcpClient again = new HttpMcpClient(sonde.port()).bearer(alice);
    again.initialize("2025-11-25");
    assertNotNull(again.sessionId(), "an ended session gives its place back");
    opened.forEach(HttpMcpClient::close);
    again.close();
    bobs.close();
  }

  @Test
  void anAccountAtItsLimitIsToldSoAndAnotherAccountStillRuns() throws Exception {
    List<String> running = new ArrayList<>();
    running.add(startJob(alice));
    running.add(startJob(alice));
    String third = startJob(alice);
    JsonObject refused = task(alice, third, true);
    assertTrue(
        refused.encode().contains("account alice already has 2 long calls"), refused.encode());
    for (String taskId : running) {
      assertEquals("working", task(alice, taskId, false).getString("status"));
    }
    String bobs = startJob(bob);
    assertEquals("working", task(bob, bobs, false).getString("status"), "bob is not alice");
    cancel(alice, running.remove(0));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String again;
    // a cancelled call's place is given back once its work has stopped
    do {
      again = startJob(alice);
      JsonObject state = task(alice, again, false);
      if ("working".equals(state.getString("status"))) {
        break;
      }
      Thread.sleep(100);
    } while (System.nanoTime() < deadline);
    assertEquals("working", task(alice, again, false).getString("status"));
    running.add(again);
    running.forEach(t -> cancel(alice, t));
    cancel(bob, bobs);
  }
}
