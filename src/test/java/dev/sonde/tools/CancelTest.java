package dev.sonde.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.chatbi.ChatBiOnPostgresTest;
import dev.sonde.support.Closing;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import dev.sonde.support.RawHttp;
import dev.sonde.support.TestPostgres;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The long tools stopped mid-run from every door: {@code notifications/cancelled} over Streamable
 * HTTP and WebSocket, a closed response stream, the job view's cancel, a browser leaving a
 * dashboard panel, and the deadline. Proved by effects on real PostgreSQL: the statement is gone
 * from {@code pg_stat_activity}, a forecast's fit no longer runs on any thread, the job is marked
 * cancelled. Slow statements come from a view whose value calls {@code pg_sleep} for every row.
 */
class CancelTest {
  /** How long a stopped call may take to leave the database (the issue asks for 1 s). */
  private static final long STOP_MILLIS = 1_000;

  /** Generous slack over it for a loaded 2-core machine; each measured time is printed. */
  private static final long STOP_LIMIT_MILLIS = 3 * STOP_MILLIS;

  private static final int TIMEOUT_SECONDS = 20;
  private static final AtomicLong IDS = new AtomicLong(5_000);

  static TestPostgres postgres;
  static String url;
  static Path data;
  static InProcessSonde sonde;
  static ToolCalls tools;

  @BeforeAll
  static void start() throws Exception {
    Path duck = TestPostgres.demoDuckDb();
    postgres = TestPostgres.start();
    url = postgres.createDatabaseFrom(duck, "cancels", ChatBiOnPostgresTest.TABLES);
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      // STABLE lets the planner drop the column where a query does not read it: only the reads
      // of values are slow, so finding tags and time spans stays quick
      st.execute(
          "CREATE FUNCTION nap(v double precision) RETURNS double precision LANGUAGE plpgsql"
              + " STABLE AS 'BEGIN PERFORM pg_sleep(0.01); RETURN v; END'");
      st.execute("CREATE TABLE readings (name text, time timestamp, value double precision)");
      // three days of minutes for three tags: a daily season of 1,440 buckets
      st.execute(
          "INSERT INTO readings SELECT t, timestamp '2026-01-01' + i * interval '1 minute',"
              + " 20 + 5 * sin(i * 2 * pi() / 1440) + random() FROM generate_series(0, 4319) i,"
              + " unnest(ARRAY['a', 'b', 'c']) t");
      st.execute(
          "CREATE VIEW slow_readings AS SELECT name, time, nap(value) AS value FROM readings");
      st.execute("ALTER TABLE inventory RENAME TO inventory_rows");
      st.execute(
          "CREATE VIEW inventory AS SELECT store_id, product_id,"
              + " CAST(nap(quantity) AS integer) AS quantity, updated_at FROM inventory_rows");
    }
    data = Files.createTempDirectory("sonde-cancel-");
    Path ontology = Files.createDirectories(data.resolve("ontology"));
    Files.writeString(
        ontology.resolve("retail.yaml"),
        Files.readString(Path.of("conf/ontology/retail.yaml"))
            .replace("connection: demo", "connection: pg"));
    sonde =
        new InProcessSonde(
            Map.of(
                "data.dir",
                data.toString(),
                "databases.defaultConnection",
                "pg",
                "databases.connections.pg.type",
                "postgres",
                "databases.connections.pg.url",
                url,
                "databases.connections.pg.queryTimeoutSeconds",
                "600",
                "chatbi.ontology",
                ontology.toString(),
                "mcp.toolTimeoutSeconds",
                String.valueOf(TIMEOUT_SECONDS)));
    tools = ToolCalls.over(sonde.port());
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.inOrder(sonde, postgres);
  }

  /** Each long tool, each with a slow statement to stop. */
  private static JsonObject call(String tool) {
    JsonObject slow =
        new JsonObject().put("table", "slow_readings").put("tag", "a").put("rollup", "hour");
    JsonObject args =
        switch (tool) {
          case "chat_bi" ->
              new JsonObject()
                  .put("nlq", "Which stores hold more stock than average, with their city?");
          case "forecast_table" -> new JsonObject().put("spec", slow);
          case "save_html_report" ->
              new JsonObject().put("table", "slow_readings").put("tag_name", "a");
          case "compile_chart_from_spec" -> new JsonObject().put("spec", slow);
          default -> throw new IllegalArgumentException(tool);
        };
    return new JsonObject()
        .put("name", tool)
        .put("arguments", args)
        .put("_meta", new JsonObject().put("progressToken", "p-" + IDS.incrementAndGet()));
  }

  /** What each tool's slow statement reads. */
  private static String marker(String tool) {
    return tool.equals("chat_bi") ? "inventory" : "slow_readings";
  }

  @ParameterizedTest
  @CsvSource({
    "http, chat_bi",
    "http, forecast_table",
    "http, save_html_report",
    "http, compile_chart_from_spec",
    "websocket, chat_bi",
    "websocket, forecast_table",
    "websocket, save_html_report",
    "websocket, compile_chart_from_spec"
  })
  void aCancelledNotificationStopsTheToolAndItsStatement(String transport, String tool)
      throws Exception {
    try (McpClient client = sonde.connect(transport)) {
      client.initialize("2025-11-25");
      long id = IDS.incrementAndGet();
      CompletableFuture<JsonObject> pending = client.send(id, "tools/call", call(tool));
      awaitFor(tool + "'s statement running", () -> running(marker(tool)) > 0, 60_000);
      long sent = System.nanoTime();
      client.notify(
          "notifications/cancelled",
          new JsonObject().put("requestId", id).put("reason", "the test stops it"));
      long took = untilGone(tool, marker(tool), sent);
      assertTrue(took < STOP_LIMIT_MILLIS, tool + " left the database after " + took + " ms");
      if (!tool.equals("compile_chart_from_spec")) {
        JsonObject job = jobOf(tool);
        awaitFor("the job cancelled", () -> "cancelled".equals(status(job)), 10_000);
        assertTrue(
            sonde
                .api("/api/jobs/" + job.getString("id"))
                .getString("message")
                .contains("the test"));
      }
      // the session keeps working, and the cancelled call never answers with a result
      assertEquals(new JsonObject(), client.request(id + 1, "ping", null).getJsonObject("result"));
      JsonObject answer = pending.isDone() ? pending.get() : null;
      assertTrue(answer == null || !answer.containsKey("result"), String.valueOf(answer));
    }
  }

  @Test
  void aClosedResponseStreamStopsTheCallAndItsStatement() throws Exception {
    McpClient session = sonde.connect("http");
    session.initialize("2025-11-25");
    String sessionId = ((HttpMcpClient) session).sessionId();
    byte[] body =
        McpClient.message(IDS.incrementAndGet(), "tools/call", call("forecast_table"))
            .encode()
            .getBytes(StandardCharsets.UTF_8);
    RawHttp raw = new RawHttp(null, sonde.port());
    raw.send(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Accept: application/json, text/event-stream\r\nMcp-Session-Id: "
            + sessionId
            + "\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: "
            + body.length
            + "\r\n\r\n");
    raw.send(body);
    awaitFor("the statement running", () -> running("slow_readings") > 0, 60_000);
    long closed = System.nanoTime();
    raw.close();
    long took = untilGone("a closed stream", "slow_readings", closed);
    assertTrue(took < STOP_LIMIT_MILLIS, "left the database after " + took + " ms");
    awaitFor(
        "the job cancelled", () -> "cancelled".equals(status(jobOf("forecast_table"))), 10_000);
    session.close();
  }

  @ParameterizedTest
  @CsvSource({"chat_bi", "forecast_table", "save_html_report"})
  void theJobViewsCancelStopsTheJobAndItsStatement(String tool) throws Exception {
    CompletableFuture<JsonObject> answer =
        CompletableFuture.supplyAsync(
            () -> tools.call(tool, call(tool).getJsonObject("arguments")));
    awaitFor(tool + "'s statement running", () -> running(marker(tool)) > 0, 60_000);
    JsonObject job = jobOf(tool);
    long sent = System.nanoTime();
    HttpResponse<String> cancel =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:"
                                + sonde.port()
                                + "/api/jobs/"
                                + job.getString("id")))
                    .DELETE()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(202, cancel.statusCode(), cancel.body());
    long took = untilGone(tool, marker(tool), sent);
    assertTrue(took < STOP_LIMIT_MILLIS, tool + " left the database after " + took + " ms");
    JsonObject result = answer.get();
    assertTrue(result.getBoolean("isError", false), result.encode());
    assertTrue(result.encode().contains("cancelled"), result.encode());
  }

  @Test
  void theDeadlineStopsTheCallAndItsStatement() throws Exception {
    long started = System.nanoTime();
    JsonObject result =
        tools.call("forecast_table", call("forecast_table").getJsonObject("arguments"));
    long answered = System.nanoTime();
    assertTrue(result.getBoolean("isError", false), result.encode());
    assertTrue(
        result.encode().contains("timed out after " + TIMEOUT_SECONDS + " s"), result.encode());
    assertTrue((answered - started) / 1_000_000 >= TIMEOUT_SECONDS * 1000L - 100);
    long took = untilGone("the deadline", "slow_readings", answered);
    assertTrue(took < STOP_LIMIT_MILLIS, "left the database after " + took + " ms");
  }

  @Test
  void aCancelledForecastStopsFittingOnEveryThread() throws Exception {
    JsonObject args =
        new JsonObject()
            .put(
                "spec",
                new JsonObject().put("table", "readings").put("tag", "a").put("rollup", "min"));
    CompletableFuture<JsonObject> answer =
        CompletableFuture.supplyAsync(() -> tools.call("forecast_table", args));
    awaitFor("the fit running", () -> fitting() > 0, 60_000);
    JsonObject job = jobOf("forecast_table");
    long sent = System.nanoTime();
    HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:" + sonde.port() + "/api/jobs/" + job.getString("id")))
                .DELETE()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    awaitFor("no thread fitting", () -> fitting() == 0, 10_000);
    long took = (System.nanoTime() - sent) / 1_000_000;
    System.out.println(
        "cancel: a forecast's fit stopped on every thread " + took + " ms after the cancel");
    assertTrue(took < STOP_LIMIT_MILLIS, "the fit ran on for " + took + " ms");
    assertTrue(answer.get().getBoolean("isError", false));
  }

  @Test
  void aViewerLeavingAPanelStopsItsStatement() throws Exception {
    JsonObject created =
        tools.ok(
            "create_dashboard_with_charts",
            new JsonObject()
                .put("filename", "cancel/slow.dsh")
                .put(
                    "charts",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("title", "a")
                                .put("type", "Line")
                                .put("table", "readings")
                                .put("tag", "a")
                                .put("rollup", "hour"))));
    String panel = created.getJsonArray("panels").getJsonObject(0).getString("id");
    // the same panel over the slow view: each GET of its data now runs a slow statement
    Path file = data.resolve("workspace/local/cancel/slow.dsh");
    Files.writeString(file, Files.readString(file).replace("\"readings\"", "\"slow_readings\""));
    RawHttp raw = new RawHttp(null, sonde.port());
    raw.send(
        "GET /api/dashboards/cancel/slow.dsh/panels/"
            + panel
            + "/data HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    awaitFor("the panel's statement running", () -> running("slow_readings") > 0, 60_000);
    long left = System.nanoTime();
    raw.close();
    long took = untilGone("a panel", "slow_readings", left);
    assertTrue(took < STOP_LIMIT_MILLIS, "left the database after " + took + " ms");
  }

  /**
   * Calls cancelled while they wait for a pooled connection give it back: a cancel that reached a
   * read just as it got its connection once threw inside the pool's callback, so every such call
   * kept one, until the reactive pool had none left and every later read waited for ever.
   */
  @Test
  void readsCancelledWhileTheyWaitLeaveThePoolWhole() throws Exception {
    try (McpClient client = sonde.connect("http")) {
      client.initialize("2025-11-25");
      JsonObject slow =
          new JsonObject()
              .put("name", "execute_query")
              .put("arguments", new JsonObject().put("sql", "SELECT count(*) FROM slow_readings"));
      for (int i = 0; i < 60; i++) {
        long id = IDS.incrementAndGet();
        client.send(id, "tools/call", slow);
        client.notify(
            "notifications/cancelled", new JsonObject().put("requestId", id).put("reason", "no"));
      }
      awaitFor("the cancelled reads gone", () -> running("slow_readings") == 0, 60_000);
      for (int i = 0; i < 40; i++) {
        JsonObject answer =
            client
                .request(
                    IDS.incrementAndGet(),
                    "tools/call",
                    new JsonObject()
                        .put("name", "execute_query")
                        .put("arguments", new JsonObject().put("sql", "SELECT " + i + " AS n")))
                .getJsonObject("result");
        assertFalse(answer.getBoolean("isError", false), answer.encode());
      }
    }
  }

  /**
   * The viewer's forecast panel keeps its fit for the refresh interval: a day of new readings does
   * not move a second view, while a forecast asked afresh draws it.
   */
  @Test
  void aForecastPanelIsFittedOncePerRefreshInterval() throws Exception {
    JsonObject spec =
        new JsonObject().put("table", "readings").put("tag", "c").put("rollup", "hour");
    int trained =
        tools
            .ok(
                "forecast_table",
                new JsonObject().put("spec", spec).put("filename", "readings/c.chart.json"))
            .getJsonArray("forecasts")
            .getJsonObject(0)
            .getInteger("training_points");
    JsonObject first = sonde.api("/api/charts/readings/c.chart.json/data");
    assertEquals(200, first.getInteger("httpStatus"), first.encode());
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute(
          "INSERT INTO readings SELECT 'c', timestamp '2026-01-04' + i * interval '1 minute', 20"
              + " FROM generate_series(0, 1439) i");
    }
    JsonObject again = sonde.api("/api/charts/readings/c.chart.json/data");
    assertEquals(first.getJsonObject("range"), again.getJsonObject("range"));
    assertEquals(first.getJsonArray("series"), again.getJsonArray("series"));
    JsonObject fresh = tools.ok("forecast_table", new JsonObject().put("spec", spec));
    assertEquals(
        trained + 24,
        fresh.getJsonArray("forecasts").getJsonObject(0).getInteger("training_points"),
        "the control, a forecast asked afresh, sees the new day");
  }

  /** Statements of Sonde's now running that read {@code marker}. */
  private static int running(String marker) {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement st =
            c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
                    + " AND pid <> pg_backend_pid() AND query LIKE ?")) {
      st.setString(1, "%" + marker + "%");
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Milliseconds from {@code since} until no statement reads {@code marker}; printed. */
  private static long untilGone(String what, String marker, long since) throws Exception {
    awaitFor("the statement gone", () -> running(marker) == 0, 30_000);
    long took = (System.nanoTime() - since) / 1_000_000;
    System.out.println("cancel: " + what + " left the database " + took + " ms after the stop");
    return took;
  }

  /** Threads now inside a forecast's models. */
  private static long fitting() {
    ThreadInfo[] threads = ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
    long count = 0;
    for (ThreadInfo thread : threads) {
      for (StackTraceElement frame : thread.getStackTrace()) {
        if (frame.getClassName().startsWith("dev.sonde.forecast.Forecaster")) {
          count++;
          break;
        }
      }
    }
    return count;
  }

  /** The newest job of {@code tool}. */
  private static JsonObject jobOf(String tool) {
    List<JsonObject> jobs =
        sonde.api("/api/jobs").getJsonArray("jobs").stream()
            .map(JsonObject.class::cast)
            .filter(j -> tool.equals(j.getString("tool")))
            .toList();
    assertFalse(jobs.isEmpty(), "no " + tool + " job");
    return jobs.get(0);
  }

  private static String status(JsonObject job) {
    return sonde.api("/api/jobs/" + job.getString("id")).getString("status");
  }

  private static void awaitFor(String what, BooleanSupplier condition, long millis)
      throws InterruptedException {
    long end = System.currentTimeMillis() + millis;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > end) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(10);
    }
  }
}
