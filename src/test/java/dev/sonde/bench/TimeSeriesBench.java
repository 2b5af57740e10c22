package dev.sonde.bench;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Charts over a generated tag table of 100 million points in DuckDB (40 tags, one point a second
 * each for 29 days, rows in time order as a feed writes them), side by side in one run: the best
 * hand-written DuckDB SQL on a direct JDBC connection and through execute_query,
 * compile_chart_from_spec through MCP on raw rows, and the same once rollups are built. Each round
 * runs them in turn; medians of the rounds are reported. usage: TimeSeriesBench <work-dir> [points]
 * [rounds]
 */
public final class TimeSeriesBench {
  private static final int TAGS = 40;
  private static final String TAG = "t7";
  private static final DateTimeFormatter WALL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private record Case(String label, String unit, String sqlInterval, JsonObject range) {}

  public static void main(String[] args) throws Exception {
    try {
      run(args);
    } finally {
      System.exit(0);
    }
  }

  private static void run(String[] args) throws Exception {
    Path work = Path.of(args[0]).toAbsolutePath();
    long points = args.length > 1 ? Long.parseLong(args[1]) : 100_000_000L;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
    Files.createDirectories(work);
    Path file = work.resolve("bench-" + points + ".duckdb");
    String url = "jdbc:duckdb:" + file;
    if (!Files.exists(file)) {
      long start = System.nanoTime();
      try (Connection c = DriverManager.getConnection(url);
          Statement st = c.createStatement()) {
        st.execute(
            "CREATE TABLE BENCH (NAME VARCHAR NOT NULL, TIME TIMESTAMP NOT NULL, VALUE DOUBLE NOT NULL)");
        st.execute(
            "INSERT INTO BENCH SELECT 't' || (i % "
                + TAGS
                + "), TIMESTAMP '2026-01-01' + INTERVAL (i // "
                + TAGS
                + ") SECOND, 20 + 5 * sin(i / 86400.0) + (hash(i) % 1000) / 1000.0 FROM range(0, "
                + points
                + ") r(i)");
        st.execute("CHECKPOINT");
      }
      System.out.printf(
          "generated %,d points in %.1f s (%s, %.2f GB)%n",
          points, (System.nanoTime() - start) / 1e9, file.getFileName(), Files.size(file) / 1e9);
    }
    // every run builds the rollups anew, so their build time is measured
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      for (String suffix : List.of("sec", "min", "hour")) {
        st.execute("DROP TABLE IF EXISTS _sonde_rollup_BENCH_" + suffix);
      }
      st.execute("DROP TABLE IF EXISTS _sonde_rollup_state");
    }
    Path data = Files.createTempDirectory("sonde-ts-bench-");
    InProcessSonde sonde =
        new InProcessSonde(
            Map.of(
                "data.dir", data.toString(),
                "docs.enabled", "false",
                "databases.connections.raw.type", "duckdb",
                "databases.connections.raw.path", file.toString(),
                "databases.connections.rolled.type", "duckdb",
                "databases.connections.rolled.path", file.toString(),
                "databases.connections.rolled.rollups", "true",
                "databases.connections.rolled.queryTimeoutSeconds", "600",
                "databases.connections.raw.queryTimeoutSeconds", "600"));
    HttpMcpClient client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
    Tools tools = new Tools(client);
    List<Case> cases =
        List.of(
            new Case(
                "hour buckets, whole range",
                "hour",
                "1 HOUR",
                new JsonObject().put("start", "first").put("end", "last")),
            new Case(
                "day buckets, whole range",
                "day",
                "1 DAY",
                new JsonObject().put("start", "first").put("end", "last")),
            new Case(
                "minute buckets, last day",
                "min",
                "1 MINUTE",
                new JsonObject().put("start", "last-1d").put("end", "last")));
    System.out.println();
    System.out.println(
        "| query | hand-written, JDBC ms | hand-written, execute_query ms | Sonde raw ms | ratio to JDBC"
            + " | ratio to execute_query | Sonde rollups ms | raw / rollups | buckets |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    // the same settings as Sonde's own connection: DuckDB shares one instance per file and process
    java.util.Properties streaming = new java.util.Properties();
    streaming.setProperty(org.duckdb.DuckDBDriver.JDBC_STREAM_RESULTS, "true");
    try (Connection direct = DriverManager.getConnection(url, streaming)) {
      // the raw runs first, then the rollups are built and the same charts read them
      List<double[]> handRaw = new ArrayList<>();
      List<JsonObject> plans = new ArrayList<>();
      for (Case c : cases) {
        JsonObject chart = chart(tools, "raw", c);
        plans.add(chart);
        List<Double> hand = new ArrayList<>();
        List<Double> viaMcp = new ArrayList<>();
        List<Double> raw = new ArrayList<>();
        String sql = handWrittenSql(c, chart);
        JsonObject query =
            new JsonObject()
                .put("connection", "raw")
                .put("sql", "SELECT count(*), sum(v) FROM (" + sql + ") q(b, v)");
        for (int r = 0; r < rounds; r++) {
          hand.add(handWritten(direct, c, chart));
          viaMcp.add(timed(() -> tools.ok("execute_query", query)));
          raw.add(timed(() -> chart(tools, "raw", c)));
        }
        handRaw.add(new double[] {median(hand), median(raw), median(viaMcp)});
      }
      long build = System.nanoTime();
      awaitRollups(tools);
      System.err.printf("rollups built in %.1f s%n", (System.nanoTime() - build) / 1e9);
      for (int i = 0; i < cases.size(); i++) {
        Case c = cases.get(i);
        JsonObject rolledChart = chart(tools, "rolled", c);
        check(plans.get(i), rolledChart, c);
        List<Double> rolled = new ArrayList<>();
        List<Double> hand = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
          hand.add(handWritten(direct, c, plans.get(i)));
          rolled.add(timed(() -> chart(tools, "rolled", c)));
        }
        double[] hr = handRaw.get(i);
        int buckets =
            plans
                .get(i)
                .getJsonObject("summary")
                .getJsonArray("series")
                .getJsonObject(0)
                .getInteger("points");
        System.out.printf(
            "| %s | %.0f | %.0f | %.0f | %.2f | %.2f | %.1f | %.1f× | %d |%n",
            c.label(),
            hr[0],
            hr[2],
            hr[1],
            hr[1] / hr[0],
            hr[1] / hr[2],
            median(rolled),
            hr[1] / median(rolled),
            buckets);
        System.err.printf(
            "%s: hand-written again during the rollup rounds %.0f ms, source %s%n",
            c.label(),
            median(hand),
            rolledChart.getJsonObject("chart").getJsonObject("plan").getString("source"));
      }
    }
    System.out.printf(
        "%n%,d points, %d tags, %d rounds per cell, medians; rollups built once in the run%n",
        points, TAGS, rounds);
    client.close();
    sonde.close();
  }

  private static JsonObject chart(Tools tools, String connection, Case c) {
    return tools.ok(
        "compile_chart_from_spec",
        new JsonObject()
            .put("connection", connection)
            .put(
                "spec",
                new JsonObject()
                    .put("table", "BENCH")
                    .put("tag", TAG)
                    .put("rollup", c.unit())
                    .put("timeRange", c.range())));
  }

  /** The best DuckDB SQL for the chart's buckets over the period of Sonde's plan. */
  private static String handWrittenSql(Case c, JsonObject chart) {
    JsonObject range = chart.getJsonObject("chart").getJsonObject("plan").getJsonObject("range");
    return "SELECT time_bucket(INTERVAL "
        + c.sqlInterval()
        + ", TIME) AS b, avg(VALUE) FROM BENCH WHERE NAME = '"
        + TAG
        + "' AND TIME >= TIMESTAMP '"
        + WALL.format(Instant.ofEpochMilli(range.getLong("start_ms")))
        + "' AND TIME < TIMESTAMP '"
        + WALL.format(Instant.ofEpochMilli(range.getLong("end_ms")))
        + "' GROUP BY b ORDER BY b";
  }

  /** The same buckets over the same period as Sonde's plan, as one would write it for DuckDB. */
  private static double handWritten(Connection direct, Case c, JsonObject chart) throws Exception {
    String sql = handWrittenSql(c, chart);
    long start = System.nanoTime();
    int rows = 0;
    try (Statement st = direct.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        rows++;
      }
    }
    double ms = (System.nanoTime() - start) / 1e6;
    int expected =
        chart.getJsonObject("summary").getJsonArray("series").getJsonObject(0).getInteger("points");
    if (rows != expected) {
      throw new IllegalStateException(
          c.label() + ": hand-written SQL gave " + rows + " buckets, Sonde " + expected);
    }
    return ms;
  }

  /** Rollups must draw what raw rows draw. */
  private static void check(JsonObject raw, JsonObject rolled, Case c) {
    JsonObject a = raw.getJsonObject("summary").getJsonArray("series").getJsonObject(0);
    JsonObject b = rolled.getJsonObject("summary").getJsonArray("series").getJsonObject(0);
    for (String key : List.of("points", "min", "max", "last")) {
      double x = a.getDouble(key);
      double y = b.getDouble(key);
      if (Math.abs(x - y) > 1e-6 * Math.max(1, Math.abs(x))) {
        throw new IllegalStateException(c.label() + ": " + key + " raw " + x + " vs rollups " + y);
      }
    }
  }

  private static void awaitRollups(Tools tools) throws InterruptedException {
    JsonObject args =
        new JsonObject()
            .put("connection", "rolled")
            .put("table_name", "BENCH")
            .put("profile", true);
    while (!tools
        .ok("describe_table", args)
        .getJsonObject("profile")
        .getJsonObject("rollups")
        .getBoolean("available")) {
      Thread.sleep(1000);
    }
  }

  /** Tool calls that fail loudly (the bench runs without JUnit on its class path). */
  private static final class Tools {
    private final HttpMcpClient client;
    private long ids = 1;

    Tools(HttpMcpClient client) {
      this.client = client;
    }

    synchronized JsonObject ok(String tool, JsonObject args) {
      JsonObject result =
          client
              .request(
                  ids++, "tools/call", new JsonObject().put("name", tool).put("arguments", args))
              .getJsonObject("result");
      if (result == null || result.getBoolean("isError", false)) {
        throw new IllegalStateException(tool + " failed: " + result);
      }
      return result.getJsonObject("structuredContent");
    }
  }

  private interface Work {
    Object run() throws Exception;
  }

  private static double timed(Work work) throws Exception {
    long start = System.nanoTime();
    work.run();
    return (System.nanoTime() - start) / 1e6;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
