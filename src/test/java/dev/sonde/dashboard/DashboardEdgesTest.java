package dev.sonde.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.InProcessSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dashboards at the edges (issue 16): a board of many panels neither freezes the server nor passes
 * the configured limit, and parallel edits of one board all land. Each test reads the saved file
 * afterwards: the effect on disk is what proves it.
 */
class DashboardEdgesTest {
  private static final int LIMIT = 400;
  static Path dataDir;
  static InProcessSonde sonde;
  static ToolCalls tools;
  static ExecutorService callers;

  @BeforeAll
  static void start() throws IOException {
    dataDir = Files.createTempDirectory("sonde-dash-edges-");
    sonde =
        new InProcessSonde(
            Map.of("data.dir", dataDir.toString(), "dashboards.maxPanels", String.valueOf(LIMIT)));
    tools = ToolCalls.over(sonde.port());
    callers = Executors.newFixedThreadPool(12);
  }

  @AfterAll
  static void stop() {
    callers.shutdownNow();
    sonde.close();
  }

  static JsonArray textPanels(int count, String prefix) {
    JsonArray panels = new JsonArray();
    for (int i = 0; i < count; i++) {
      panels.add(new JsonObject().put("title", prefix + i).put("type", "Text").put("text", "n"));
    }
    return panels;
  }

  static JsonObject create(String file, JsonArray panels) {
    return tools.ok(
        "create_dashboard_with_charts",
        new JsonObject().put("filename", file).put("charts", panels).put("overwrite", true));
  }

  /** The dashboard as saved on disk. */
  static JsonObject saved(String file) throws IOException {
    return new JsonObject(Files.readString(dataDir.resolve("workspace/local").resolve(file)));
  }

  @Test
  void aBoardOfManyPanelsIsPlacedWhileOtherCallsStillAnswerPromptly() throws Exception {
    create("edge/small.dsh", textPanels(1, "s"));
    tools.ok("get_version", new JsonObject());
    JsonArray many = textPanels(LIMIT, "p");
    CompletableFuture<JsonObject> big =
        CompletableFuture.supplyAsync(() -> create("edge/big.dsh", many), callers);
    // light calls while the big one runs: the system family, and the dashboard family itself
    long slowest = 0;
    int answered = 0;
    do {
      long started = System.nanoTime();
      tools.ok("get_version", new JsonObject());
      tools.ok("get_dashboard", new JsonObject().put("filename", "edge/small.dsh"));
      slowest = Math.max(slowest, (System.nanoTime() - started) / 1_000_000);
      answered++;
    } while (!big.isDone());
    // the issue asks < 200 ms; 2 s leaves room for a busy 2-core machine, the freeze was 38 s
    assertTrue(slowest < 2_000, "a light call took " + slowest + " ms while the big one ran");
    assertTrue(answered > 0);
    JsonObject made = big.get(60, TimeUnit.SECONDS);
    assertEquals(LIMIT, made.getJsonArray("panels").size());
    JsonArray panels = saved("edge/big.dsh").getJsonArray("panels");
    assertEquals(LIMIT, panels.size());
    assertNoOverlap(panels);
  }

  @Test
  void theLimitIsACallerErrorThatSaysWhatToDo() throws IOException {
    String refused =
        tools.refused(
            "create_dashboard_with_charts",
            new JsonObject()
                .put("filename", "edge/over.dsh")
                .put("charts", textPanels(LIMIT + 1, "o")));
    assertTrue(refused.contains("at most " + LIMIT + " panels"), refused);
    assertTrue(refused.contains("would have " + (LIMIT + 1)), refused);
    assertTrue(refused.contains("split the charts over several dashboards"), refused);
    assertFalse(Files.exists(dataDir.resolve("workspace/local/edge/over.dsh")));

    create("edge/full.dsh", textPanels(LIMIT, "f"));
    String full =
        tools.refused(
            "add_chart_to_dashboard",
            new JsonObject()
                .put("filename", "edge/full.dsh")
                .put("chart", new JsonObject().put("type", "Text").put("text", "one more")));
    assertTrue(full.contains("at most " + LIMIT + " panels"), full);
    assertEquals(LIMIT, saved("edge/full.dsh").getJsonArray("panels").size());
  }

  @Test
  void parallelAddsAllLand() throws Exception {
    create("edge/adds.dsh", textPanels(1, "first"));
    List<JsonObject> answers =
        inParallel(
            i ->
                tools.ok(
                    "add_chart_to_dashboard",
                    new JsonObject()
                        .put("filename", "edge/adds.dsh")
                        .put(
                            "chart",
                            new JsonObject()
                                .put("title", "added" + i)
                                .put("type", "Text")
                                .put("text", "t"))));
    JsonArray panels = saved("edge/adds.dsh").getJsonArray("panels");
    assertEquals(13, panels.size(), "12 adds on a board of 1: " + panels.encode());
    Set<String> ids = new HashSet<>();
    panels.forEach(p -> ids.add(((JsonObject) p).getString("id")));
    for (JsonObject answer : answers) {
      assertTrue(ids.contains(answer.getJsonObject("panel").getString("id")), "a success was lost");
    }
    assertNoOverlap(panels);
  }

  /** Twelve renames of edge/names.dsh at once: call i gives panel(i) the title title(i). */
  private static void renameAtOnce(IntFunction<String> panel, IntFunction<String> title)
      throws Exception {
    inParallel(
        i ->
            tools.ok(
                "update_chart_in_dashboard",
                new JsonObject()
                    .put("filename", "edge/names.dsh")
                    .put("panel", panel.apply(i))
                    .put("new_title", title.apply(i))));
  }

  @Test
  void parallelRenamesAllLandOneAfterAnother() throws Exception {
    JsonObject made = create("edge/names.dsh", textPanels(12, "old"));
    List<String> ids = new ArrayList<>();
    made.getJsonArray("panels").forEach(p -> ids.add(((JsonObject) p).getString("id")));
    renameAtOnce(ids::get, i -> "new" + i);
    JsonArray panels = saved("edge/names.dsh").getJsonArray("panels");
    assertEquals(12, panels.size());
    for (int i = 0; i < 12; i++) {
      assertEquals("new" + i, panels.getJsonObject(i).getString("title"), panels.encode());
    }

    renameAtOnce(i -> ids.get(0), i -> "same panel " + i);
    JsonArray after = saved("edge/names.dsh").getJsonArray("panels");
    assertEquals(12, after.size(), "the file is whole");
    assertTrue(after.getJsonObject(0).getString("title").startsWith("same panel "));
    assertEquals("new1", after.getJsonObject(1).getString("title"));
  }

  /** Runs {@code call} for 0..11 at once, after all twelve are ready; answers in order. */
  static List<JsonObject> inParallel(IntFunction<JsonObject> call) throws Exception {
    CountDownLatch ready = new CountDownLatch(12);
    List<Future<JsonObject>> running = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      int n = i;
      running.add(
          callers.submit(
              () -> {
                ready.countDown();
                ready.await();
                return call.apply(n);
              }));
    }
    List<JsonObject> answers = new ArrayList<>();
    for (Future<JsonObject> f : running) {
      answers.add(f.get(60, TimeUnit.SECONDS));
    }
    return answers;
  }

  static void assertNoOverlap(JsonArray panels) {
    Set<Long> cells = new HashSet<>();
    for (Object o : panels) {
      JsonObject g = ((JsonObject) o).getJsonObject("grid");
      assertTrue(g.getInteger("x") + g.getInteger("w") <= 12, g.encode());
      for (int y = g.getInteger("y"); y < g.getInteger("y") + g.getInteger("h"); y++) {
        for (int x = g.getInteger("x"); x < g.getInteger("x") + g.getInteger("w"); x++) {
          assertTrue(cells.add(y * 16L + x), "panels overlap at " + x + "," + y);
        }
      }
    }
  }
}
