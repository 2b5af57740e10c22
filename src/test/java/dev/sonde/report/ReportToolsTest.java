package dev.sonde.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** save_html_report's two calls on the demo tag tables through MCP. */
class ReportToolsTest {
  /** The default account's workspace of the shared database Sonde. */
  static final Path WORKSPACE = Path.of("target/test-data/workspace/local");

  static HttpMcpClient client;
  static ToolCalls tools;

  @BeforeAll
  static void connect() {
    client = new HttpMcpClient(DatabaseSonde.get().port());
    client.initialize("2025-11-25");
    tools = new ToolCalls(client);
  }

  static JsonObject report(JsonObject args) {
    return tools.ok("save_html_report", args);
  }

  static String get(String link) throws Exception {
    HttpResponse<String> page = client.get(link);
    assertEquals(200, page.statusCode(), page.body());
    return page.body();
  }

  @Test
  void goldGetsTheFinanceTemplateASummaryFirstThenAnEscapedReport() throws Exception {
    JsonObject first = report(new JsonObject().put("table", "GOLD").put("rollup_unit", "day"));
    assertEquals("summary", first.getString("stage"));
    assertEquals("R-1-finance", first.getJsonObject("template").getString("id"));
    assertTrue(first.getJsonArray("notices").encode().contains("no tag_name was given"));
    JsonObject summary = first.getJsonObject("summary");
    assertEquals("close", summary.getString("price_tag"));
    double volatility = summary.getDouble("annualised_volatility_pct");
    assertTrue(volatility > 1 && volatility < 200, summary.encode());
    assertTrue(summary.getDouble("max_drawdown_pct") <= 0);
    assertTrue(first.getString("next").contains("analysis"));

    JsonObject saved =
        report(
            new JsonObject()
                .put("table", "GOLD")
                .put("rollup_unit", "day")
                .put("tag_name", "close,open,high,low")
                .put(
                    "analysis",
                    "## Gold\n\nVolatility is **moderate**. <script>alert(1)</script>"
                        + " [see](javascript:alert(2))"
                        + " [open](data:text/html;base64,PHNjcmlwdD5hbGVydCgzKTwvc2NyaXB0Pg==)"
                        + " ![chart](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)")
                .put("recommendations", "- hold\n- review monthly")
                .put("tag_count", "5"));
    assertEquals("saved", saved.getString("stage"));
    String path = saved.getJsonObject("report").getString("path");
    assertTrue(
        path.matches(
            "reports/GOLD-close_open_high_low-R-1-finance-\\d{8}-\\d{6}-\\d{3}-[0-9a-f]{6}\\.html"),
        path);
    String html = get(saved.getJsonObject("report").getString("link"));
    assertTrue(html.contains("<strong>moderate</strong>"), "Markdown is rendered");
    assertFalse(html.contains("<script>alert(1)"), "HTML in the analysis is text");
    assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assertFalse(html.contains("javascript:alert(2)"), "unsafe links are dropped");
    assertFalse(html.contains("data:text/html"), "data: links are dropped");
    assertFalse(html.contains("PHN2Zz48L3N2Zz4="), "data: images are dropped");
    assertTrue(html.contains("candlestick"));
    assertTrue(html.contains("As reported by the caller: tag count 5"));
  }

  @Test
  void reportsSavedInTheSameSecondEachKeepTheirOwnFile() throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(5);
    List<Future<JsonObject>> saving = new ArrayList<>();
    CountDownLatch ready = new CountDownLatch(5);
    for (int i = 0; i < 5; i++) {
      JsonObject args =
          new JsonObject()
              .put("table", "EXAMPLE")
              .put("tag_name", "temperature")
              .put("template_id", "R-0-general")
              .put("rollup_unit", "hour")
              .put("analysis", "Report number " + i + ".");
      saving.add(
          callers.submit(
              () -> {
                ready.countDown();
                ready.await();
                return tools.ok("save_html_report", args);
              }));
    }
    Set<String> paths = new HashSet<>();
    try {
      for (int i = 0; i < 5; i++) {
        String path =
            saving.get(i).get(120, TimeUnit.SECONDS).getJsonObject("report").getString("path");
        assertTrue(path.startsWith("reports/EXAMPLE-temperature-R-0-general-"), path);
        paths.add(path);
        String saved = Files.readString(WORKSPACE.resolve(path));
        assertTrue(saved.contains("Report number " + i + "."), "the answer names its own report");
      }
    } finally {
      callers.shutdownNow();
    }
    assertEquals(5, paths.size(), "five names: " + paths);
  }

  @Test
  void aHardLinkedFileInTheWorkspaceIsNotServed() throws Exception {
    Path secret = Files.writeString(WORKSPACE.resolveSibling("secret.txt"), "s3cret token");
    Path link = Files.createDirectories(WORKSPACE.resolve("reports")).resolve("linked.html");
    Files.deleteIfExists(link);
    Files.createLink(link, secret);
    HttpResponse<String> page = client.get("/workspace/reports/linked.html");
    assertEquals(400, page.statusCode(), page.body());
    assertTrue(page.body().contains("other hard links"), page.body());
    assertFalse(page.body().contains("s3cret"));
  }

  @Test
  void vibrationIsChosenFromTheSampleRateWithTheDemosKnownTones() {
    JsonObject first = report(new JsonObject().put("table", "VIBRATION").put("tag_name", "x"));
    JsonObject template = first.getJsonObject("template");
    assertEquals("R-2-vibration", template.getString("id"));
    assertTrue(template.getString("chosen_because").contains("1000 Hz"), template.encode());
    JsonObject x = first.getJsonObject("summary").getJsonObject("x");
    assertEquals(1000, x.getDouble("sample_rate_hz"), 1);
    // 0.8 sin(50 Hz) + 0.2 sin(87 Hz) + uniform noise of width 0.1
    double rms = Math.sqrt(0.8 * 0.8 / 2 + 0.2 * 0.2 / 2 + 0.01 / 12);
    assertEquals(rms, x.getDouble("rms"), 0.01);
    JsonArray peaks = x.getJsonArray("spectrum_peaks");
    assertEquals(50, peaks.getJsonObject(0).getDouble("hz"), 0.3);
    assertEquals(0.8, peaks.getJsonObject(0).getDouble("amplitude"), 0.03);
    assertEquals(87, peaks.getJsonObject(1).getDouble("hz"), 0.3);
    // velocity RMS of 0.8 m/s² at 50 Hz and 0.2 m/s² at 87 Hz, integrated: class II zone B
    double velocity =
        Math.hypot(0.8 / (2 * Math.PI * 50), 0.2 / (2 * Math.PI * 87)) / Math.sqrt(2) * 1000;
    assertEquals(velocity, x.getDouble("velocity_rms_mm_s"), 0.05);
    assertTrue(x.getString("iso_10816_zone").startsWith("B "), x.getString("iso_10816_zone"));
    assertTrue(first.getJsonObject("summary").getString("iso_table").contains("10816-1"));
  }

  @Test
  void drivingFindsCorrelationGearsAndSegments() {
    JsonObject first =
        report(new JsonObject().put("table", "DRIVING").put("tag_name", "speed,rpm"));
    assertEquals("R-3-driving", first.getJsonObject("template").getString("id"));
    JsonObject summary = first.getJsonObject("summary");
    assertTrue(summary.getDouble("pearson") > 0.8, summary.encode());
    assertTrue(summary.getDouble("spearman") > 0.8, summary.encode());
    JsonArray gears = summary.getJsonArray("gears");
    assertTrue(gears.size() >= 2 && gears.size() <= 6, gears.encode());
    for (int g = 1; g < gears.size(); g++) {
      assertTrue(
          gears.getJsonObject(g).getDouble("rpm_per_kmh")
              < gears.getJsonObject(g - 1).getDouble("rpm_per_kmh"),
          "gears are ordered from the lowest (highest ratio)");
    }
    JsonObject segments = summary.getJsonObject("segments");
    assertTrue(segments.getJsonObject("cruising").getDouble("seconds") > 0, segments.encode());
    assertTrue(
        segments.getJsonObject("accelerating").getInteger("segments") > 0, segments.encode());
  }

  @Test
  void theGeneralAndTheShippedCustomTemplateDescribeASensor() {
    JsonObject general =
        report(
            new JsonObject()
                .put("table", "EXAMPLE")
                .put("tag_name", "temperature")
                .put("template_id", "R-0-general")
                .put("rollup_unit", "hour"));
    JsonObject stats =
        general.getJsonObject("summary").getJsonObject("statistics").getJsonObject("temperature");
    assertEquals(21, stats.getDouble("mean"), 0.5);
    assertEquals(720, stats.getInteger("count"), 2);
    JsonObject energy =
        report(
            new JsonObject()
                .put("table", "EXAMPLE")
                .put("tag_name", "temperature")
                .put("template_id", "C-1-energy")
                .put("rollup_unit", "hour")
                .put("timezone", "Asia/Seoul"));
    JsonObject summary = energy.getJsonObject("summary");
    assertEquals("kWh", summary.getString("unit"));
    assertEquals(24, summary.getJsonObject("daily_profile").getJsonArray("temperature").size());
    assertEquals(3, summary.getJsonObject("peak_hours").getJsonArray("temperature").size());
    assertTrue(
        general.getJsonArray("templates").encode().contains("C-1-energy"),
        "the custom template is listed");
  }

  @Test
  void badRequestsAreRefusedWithWhatToChange() {
    String unknown =
        tools.refused(
            "save_html_report", new JsonObject().put("table", "GOLD").put("template_id", "R-9-x"));
    assertTrue(unknown.contains("R-2-vibration"), unknown);
    String driving =
        tools.refused(
            "save_html_report",
            new JsonObject()
                .put("table", "GOLD")
                .put("tag_name", "close")
                .put("template_id", "R-3-driving"));
    assertTrue(driving.contains("speed"), driving);
    String tag =
        tools.refused(
            "save_html_report", new JsonObject().put("table", "GOLD").put("tag_name", "clsoe"));
    assertTrue(tag.contains("close"), tag);
  }
}
