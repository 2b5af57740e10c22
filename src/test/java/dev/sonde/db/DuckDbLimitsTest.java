package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.OperatingSystemMXBean;
import dev.sonde.config.SondeConfig;
import dev.sonde.support.HeapPeak;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 on the embedded DuckDB: memory and threads bounded per instance and locked, and a
 * statement past its time stopped, or given up on and its connection discarded when the engine
 * cannot stop it.
 */
class DuckDbLimitsTest {
  static InProcessSonde sonde;
  static HttpMcpClient client;
  static ToolCalls tools;

  @BeforeAll
  static void start() throws java.io.IOException {
    String shared =
        java.nio.file.Files.createTempDirectory("sonde-shared-").resolve("one.duckdb").toString();
    sonde =
        new InProcessSonde(
            Map.ofEntries(
                // two connections on one file: DuckDB gives both the same instance
                Map.entry("databases.connections.sharedfirst.type", "duckdb"),
                Map.entry("databases.connections.sharedfirst.path", shared),
                Map.entry("databases.connections.sharedfirst.memoryLimit", "300MiB"),
                Map.entry("databases.connections.sharedsecond.type", "duckdb"),
                Map.entry("databases.connections.sharedsecond.path", shared),
                Map.entry("databases.connections.sharedsecond.memoryLimit", "400MiB"),
                // the demo's own generation and rollups on a locked instance: ChartToolsTest
                Map.entry("databases.connections.big.type", "duckdb"),
                Map.entry("databases.connections.tight.type", "duckdb"),
                Map.entry("databases.connections.tight.memoryLimit", "256MiB"),
                Map.entry("databases.connections.tight.threads", "1"),
                Map.entry("databases.connections.tight.queryTimeoutSeconds", "2"),
                Map.entry("databases.connections.tightengine.type", "duckdb"),
                Map.entry("databases.connections.tightengine.memoryLimit", "256MiB"),
                Map.entry("databases.connections.tightengine.guard", "engine-only")));
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
    tools = new ToolCalls(client);
  }

  @AfterAll
  static void stop() {
    client.close();
    sonde.close();
  }

  static JsonObject sql(String connection, String sql) {
    return new JsonObject().put("connection", connection).put("sql", sql);
  }

  static JsonArray row(String connection, String sql) {
    return tools.ok("execute_query", sql(connection, sql)).getJsonArray("rows").getJsonArray(0);
  }

  /**
   * A second connection on a file another one opened gets the instance the first set up, already
   * locked, instead of failing to open because its own limits cannot be set any more (before, the
   * second was reported unavailable and retried every 30 s).
   */
  @Test
  void twoConnectionsOnOneFileBothOpenWithTheFirstsLimits() {
    JsonArray first = row("sharedfirst", SETTINGS);
    JsonArray second = row("sharedsecond", SETTINGS);
    assertEquals(first, second, "one instance, set up once");
    assertTrue(List.of("300.0 MiB", "400.0 MiB").contains(first.getString(0)), first.encode());
    assertEquals("true", String.valueOf(first.getValue(2)));
  }

  static final String SETTINGS =
      "SELECT current_setting('memory_limit'), current_setting('threads'),"
          + " current_setting('lock_configuration')";

  static final List<String> CHANGES =
      List.of(
          "SET memory_limit = '1GB'",
          "SET threads = 2",
          "RESET memory_limit",
          "PRAGMA memory_limit = '1GB'",
          "SET lock_configuration = false",
          "SET enable_external_access = true");

  @Test
  void limitsComeFromTheConfigurationAndNoStatementChangesThem() {
    assertEquals(
        List.of("256.0 MiB", 1L, true),
        row("tight", SETTINGS).getList().stream()
            .map(v -> v instanceof Integer i ? (Object) i.longValue() : v)
            .toList());
    // through the tools: refused by the guard or by the engine, and nothing changes
    for (String set : CHANGES) {
      tools.refused("execute_query", sql("tightengine", set));
    }
    assertEquals("256.0 MiB", row("tightengine", SETTINGS).getValue(0));
  }

  /** Below the guard: the instance as Sonde opens it refuses every change to its settings. */
  @Test
  void theEngineRefusesToChangeALockedConfiguration() throws Exception {
    SondeConfig.ConnectionConfig template = SondeConfig.ConnectionConfig.template();
    SondeConfig.ConnectionConfig c =
        new SondeConfig.ConnectionConfig(
            "duckdb",
            "",
            "",
            "",
            "",
            "",
            false,
            1000,
            4000,
            65536,
            30,
            true,
            false,
            "strict",
            false,
            "300MB",
            1,
            java.util.Map.of());
    assertEquals("", template.memoryLimit());
    try (DuckDbSource source = new DuckDbSource("jdbc:duckdb:", 2)) {
      DatabaseRegistry.prepareDuckDb(source, c);
      try (Connection borrowed = source.borrow()) {
        for (String set : CHANGES) {
          try (Statement st = borrowed.createStatement()) {
            SQLException refusal = assertThrows(SQLException.class, () -> st.execute(set), set);
            assertTrue(refusal.getMessage().contains("locked"), set + ": " + refusal.getMessage());
          }
        }
        try (Statement st = borrowed.createStatement();
            ResultSet rs = st.executeQuery(SETTINGS)) {
          rs.next();
          assertEquals("286.1 MiB", rs.getString(1));
          assertEquals(1, rs.getInt(2));
        }
      }
    }
  }

  @Test
  void defaultsBoundTheInstance() {
    JsonArray settings = row("big", SETTINGS);
    int cores = Runtime.getRuntime().availableProcessors();
    assertEquals(Math.max(1, cores / 2), ((Number) settings.getValue(1)).intValue());
    long total =
        ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
    double gib = total / 4.0 / (1L << 30);
    String shown = settings.getString(0);
    double limit =
        Double.parseDouble(shown.split(" ")[0]) * (shown.endsWith("GiB") ? 1 : 1.0 / 1024);
    assertTrue(Math.abs(limit - gib) < 0.05 * gib, shown + " vs " + gib + " GiB");
  }

  @Test
  void aStatementPastTheMemoryLimitFails() {
    // the connection with the same memory limit and the default deadline: on a busy machine the
    // tight one's 2 s can run out before the memory does
    String refusal =
        tools.refused(
            "execute_query",
            sql(
                "tightengine",
                "SELECT length(string_agg(repeat('x', 1000), ',')) FROM range(1000000)"));
    assertTrue(refusal.toLowerCase().contains("memory"), refusal);
    assertEquals(1L, ((Number) row("tightengine", "SELECT 1").getValue(0)).longValue());
  }

  /**
   * CPU nanoseconds of each of Sonde's database workers. The tight connection has one DuckDB
   * thread, so its statements run on the worker that called them; threads of other tests' servers
   * in this JVM are told apart by being busy before the call.
   */
  static Map<Long, Long> workerCpu() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<Long, Long> out = new HashMap<>();
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith("sonde-db")) {
        out.put(info.getThreadId(), Math.max(0, threads.getThreadCpuTime(info.getThreadId())));
      }
    }
    return out;
  }

  /** The worker that used the most CPU between {@code before} and now, none busy already then. */
  static long busiest(Map<Long, Long> idleBefore, Map<Long, Long> before) {
    Map<Long, Long> now = workerCpu();
    long best = -1;
    long most = -1;
    for (Map.Entry<Long, Long> e : now.entrySet()) {
      long used = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      boolean wasIdle =
          before.getOrDefault(e.getKey(), 0L) - idleBefore.getOrDefault(e.getKey(), 0L)
              < 100_000_000L;
      if (wasIdle && used > most) {
        most = used;
        best = e.getKey();
      }
    }
    return best;
  }

  /** Cores the one thread used per second of wall time, over {@code millis}. */
  static double rate(long thread, long millis) throws InterruptedException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu = threads.getThreadCpuTime(thread);
    long wall = System.nanoTime();
    Thread.sleep(millis);
    return (threads.getThreadCpuTime(thread) - cpu) / (double) (System.nanoTime() - wall);
  }

  /** Waits (up to {@code seconds}) until the thread uses less than a fifth of a core. */
  static double fallsBack(long thread, int seconds) throws InterruptedException {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    double rate;
    do {
      rate = rate(thread, 500);
    } while (rate > 0.2 && System.nanoTime() < end);
    return rate;
  }

  /** Per-thread CPU over half a second before a call, to leave out threads busy already. */
  static Map<Long, Long> baseline(Map<Long, Long>[] before) throws InterruptedException {
    Map<Long, Long> idle = workerCpu();
    Thread.sleep(500);
    before[0] = workerCpu();
    return idle;
  }

  static int runaways() {
    return tools
        .ok("health_check", new JsonObject())
        .getJsonObject("connections")
        .getJsonObject("tight")
        .getJsonObject("pool")
        .getInteger("runaway");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aStatementPastItsTimeIsInterrupted() throws Exception {
    Map<Long, Long>[] before = new Map[1];
    Map<Long, Long> idle = baseline(before);
    long start = System.nanoTime();
    String refusal =
        tools.refused(
            "execute_query",
            sql("tight", "SELECT count(*) FROM range(100000000000) t(i) WHERE hash(i) % 7 = 3"));
    double seconds = (System.nanoTime() - start) / 1e9;
    long worker = busiest(idle, before[0]);
    assertTrue(refusal.contains("longer than 2 s and was stopped"), refusal);
    assertTrue(seconds < 2 + RUNAWAY_GRACE_SECONDS, seconds + " s");
    long used = workerCpu().get(worker) - before[0].getOrDefault(worker, 0L);
    // proof that it ran until stopped, not refused before it ran (which costs milliseconds); a busy
    // machine gives the worker a fraction of a core, so no more is asked of it
    assertTrue(used > 100_000_000L, "the statement's worker used only " + used / 1e9 + " s");
    assertTrue(fallsBack(worker, 3) < 0.2, "the engine kept working after the interrupt");
    assertEquals(0, runaways());
  }

  static final double RUNAWAY_GRACE_SECONDS = Database.RUNAWAY_GRACE_MILLIS / 1000.0;

  /**
   * One long function call (constant-folded while DuckDB prepares the statement) cannot be
   * interrupted: the caller is answered after the grace period, the connection is discarded, and
   * the pool shows the runaway until the engine is done with it.
   */
  @Test
  @SuppressWarnings("unchecked")
  void aStatementTheEngineCannotStopIsGivenUp() throws Exception {
    Map<Long, Long>[] before = new Map[1];
    Map<Long, Long> idle = baseline(before);
    long start = System.nanoTime();
    String refusal =
        tools.refused(
            "execute_query",
            sql("tight", "SELECT levenshtein(repeat('a', 80000), repeat('b', 80000))"));
    double seconds = (System.nanoTime() - start) / 1e9;
    long worker = busiest(idle, before[0]);
    double whileBusy = rate(worker, 500);
    assertTrue(refusal.contains("did not stop it"), refusal);
    assertTrue(refusal.contains("discarded"), refusal);
    assertTrue(seconds < 2 + RUNAWAY_GRACE_SECONDS + 2, seconds + " s");
    assertEquals(1, runaways(), "the pool does not show the runaway");
    assertTrue(whileBusy > 0.1, "measured " + whileBusy + " cores while it ran");
    // the connection serves others meanwhile
    assertEquals(1L, ((Number) row("tight", "SELECT 1").getValue(0)).longValue());
    long end = System.nanoTime() + 120_000_000_000L;
    while (runaways() > 0 && System.nanoTime() < end) {
      rate(worker, 200);
    }
    assertEquals(0, runaways(), "the runaway never ended");
    assertTrue(fallsBack(worker, 5) < 0.2, "its worker stayed busy after the runaway ended");
  }

  /**
   * A 200 MB value is cut by the engine before Sonde reads it: the call's heap peak stays far below
   * the value's size, while the same value inside a list (which is not cut) shows the measure
   * works.
   */
  @Test
  void aHugeValueIsCutBeforeItIsRead() {
    JsonObject[] answer = new JsonObject[1];
    long cut =
        HeapPeak.during(
            () ->
                answer[0] =
                    tools.ok(
                        "execute_query", sql("big", "SELECT repeat('x', 200000000) AS v, 1 AS n")));
    JsonArray row = answer[0].getJsonArray("rows").getJsonArray(0);
    assertTrue(answer[0].getBoolean("truncated"), answer[0].encode().substring(0, 300));
    assertTrue(row.getString(0).length() <= 4001, "" + row.getString(0).length());
    assertEquals("v", answer[0].getJsonArray("columns").getJsonObject(0).getString("name"));
    assertEquals("n", answer[0].getJsonArray("columns").getJsonObject(1).getString("name"));
    assertTrue(cut < 100_000_000L, "heap grew by " + cut / 1_000_000 + " MB");
    long whole =
        HeapPeak.during(
            () -> tools.ok("execute_query", sql("big", "SELECT [repeat('x', 100000000)] AS v")));
    assertTrue(
        whole > 80_000_000L, "the control grew the heap by " + whole / 1_000_000 + " MB only");
    // an ordered result keeps its order through the cut
    JsonArray ordered =
        tools
            .ok(
                "execute_query",
                sql("big", "SELECT i, 'v' || i AS s FROM range(5) t(i) ORDER BY i DESC -- last"))
            .getJsonArray("rows");
    assertEquals(4L, ((Number) ordered.getJsonArray(0).getValue(0)).longValue());
    assertEquals("v0", ordered.getJsonArray(4).getString(1));
  }
}
