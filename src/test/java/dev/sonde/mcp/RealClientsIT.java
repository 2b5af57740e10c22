package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.docs.CorpusDocs;
import dev.sonde.support.NodeScript;
import dev.sonde.support.PackagedSonde;
import dev.sonde.support.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Clients people actually use, against the packaged jar. */
class RealClientsIT {
  @Test
  void theOfficialTypeScriptClientWorksOverHttpAndWebSocket() throws Exception {
    allTenChecksPass("ts-client.mjs", PackagedHttpIT.Holder.get());
  }

  /** Runs a TypeScript SDK script against {@code sonde}; each prints "N passed, M failed". */
  private static void allTenChecksPass(String script, PackagedSonde sonde) throws Exception {
    NodeScript.Outcome outcome =
        NodeScript.run(
            Path.of("target"), 180, NodeScript.script(script), String.valueOf(sonde.port()));
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("10 passed, 0 failed"), outcome.output());
  }

  @Test
  void theOfficialTypeScriptClientsSignInWithApiTokensMadeOnTheCommandLine() throws Exception {
    Path dir = Files.createTempDirectory("sonde-tokens-it-");
    Path config = dir.resolve("sonde.yaml");
    Files.writeString(
        config, "auth:\n  mode: tokens\n  tokensFile: \"" + dir.resolve("tokens.json") + "\"\n");
    String dataQuery = token(config, "alice", "data-query");
    String general = token(config, "bob", "general");
    try (PackagedSonde sonde = PackagedSonde.plainJar("--config", config.toString())) {
      NodeScript.Outcome outcome =
          NodeScript.run(
              Path.of("target"),
              300,
              NodeScript.script("ts-tokens.mjs"),
              String.valueOf(sonde.port()),
              dataQuery,
              general);
      assertEquals(0, outcome.exitCode(), outcome.output());
      assertTrue(outcome.output().contains("12 passed, 0 failed"), outcome.output());
      String log = String.join("\n", sonde.stderr);
      for (String token : List.of(dataQuery, general)) {
        // the secret is all after "sonde_<16 hex>_": it may hold '_' itself
        assertTrue(!log.contains(token.substring(23)), "a token's secret in the log");
      }
    }
  }

  /**
   * The same clients and checks with OAuth 2.1 access tokens: JWTs of a local issuer (RFC 8414
   * metadata and a JWKS), for Sonde's resource, whose scopes name the toolsets.
   */
  @Test
  void theOfficialTypeScriptClientsSignInWithOAuthAccessTokens() throws Exception {
    String resource = "https://sonde.test/mcp";
    try (dev.sonde.support.TestIssuer issuer = new dev.sonde.support.TestIssuer()) {
      Path config = Files.createTempDirectory("sonde-oauth-it-").resolve("sonde.yaml");
      Files.writeString(
          config,
          "auth:\n  mode: oauth\n  oauth:\n    issuer: \""
              + issuer.issuer()
              + "\"\n    resource: \""
              + resource
              + "\"\n");
      String dataQuery = issuer.mint(issuer.claims("alice", resource, "data-query"));
      String general = issuer.mint(issuer.claims("bob", resource, "general"));
      try (PackagedSonde sonde = PackagedSonde.plainJar("--config", config.toString())) {
        NodeScript.Outcome outcome =
            NodeScript.run(
                Path.of("target"),
                300,
                NodeScript.script("ts-tokens.mjs"),
                String.valueOf(sonde.port()),
                dataQuery,
                general);
        assertEquals(0, outcome.exitCode(), outcome.output());
        assertTrue(outcome.output().contains("12 passed, 0 failed"), outcome.output());
        String log = String.join("\n", sonde.stderr);
        for (String token : List.of(dataQuery, general)) {
          assertTrue(
              !log.contains(token.substring(token.lastIndexOf('.') + 1)), "a signature in the log");
        }
      }
    }
  }

  /** {@code java -jar sonde.jar token create}: the token is its stdout. */
  private static String token(Path config, String account, String toolsets) throws Exception {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                PackagedSonde.jar().toString(),
                "token",
                "create",
                "--account",
                account,
                "--toolsets",
                toolsets,
                "--config",
                config.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String token = new String(process.getInputStream().readAllBytes()).trim();
    assertEquals(0, process.waitFor(), "token create failed");
    return token;
  }

  @Test
  void theOfficialTypeScriptClientQueriesPostgresOnTheReactiveClient() throws Exception {
    try (TestPostgres postgres = TestPostgres.start()) {
      String url = postgres.createChinook("chinook_ts");
      Path config = Files.createTempFile("sonde-pg-", ".yaml");
      Files.writeString(
          config,
          "databases:\n  defaultConnection: pg\n  connections:\n    pg:\n"
              + "      type: postgres\n      url: \""
              + url
              + "\"\n");
      try (PackagedSonde sonde = PackagedSonde.plainJar("--config", config.toString())) {
        allTenChecksPass("ts-postgres.mjs", sonde);
      }
    }
  }

  @Test
  void theOfficialTypeScriptClientSearchesAndReadsDocumentation() throws Exception {
    Assumptions.assumeTrue(CorpusDocs.available(), "../shared/corpora/duckdb-docs is not here");
    Path config = Files.createTempFile("sonde-docs-", ".yaml");
    Files.writeString(
        config,
        "docs:\n  sources:\n    duckdb:\n      path: \""
            + CorpusDocs.CORPUS.toAbsolutePath().normalize()
            + "\"\n      versions: [stable, stable-zh=stable]\n"
            + "      urlBase: https://duckdb.org/docs/\n      urlBases: [stable-zh/=]\n"
            + "      include: [\"stable/sql/**\", \"stable-zh/sql/**\"]\n");
    try (PackagedSonde sonde = PackagedSonde.plainJar("--config", config.toString())) {
      allTenChecksPass("ts-docs.mjs", sonde);
    }
  }

  @Test
  void theConformanceSuitePassesAgainstTheJarWithTheConformanceFlag() throws Exception {
    try (PackagedSonde sonde = PackagedSonde.plainJar("--conformance")) {
      NodeScript.Outcome outcome =
          NodeScript.run(
              Path.of("target/conformance"),
              600,
              NodeScript.script("node_modules/@modelcontextprotocol/conformance/dist/index.js"),
              "server",
              "--url",
              "http://localhost:" + sonde.port() + "/mcp");
      assertEquals(0, outcome.exitCode(), outcome.output());
      Matcher scenarios = Pattern.compile("(?m)^✓ ").matcher(outcome.output());
      long passedScenarios = scenarios.results().count();
      assertEquals(30, passedScenarios, outcome.output());
      assertTrue(
          outcome.output().matches("(?s).*Total: \\d+ passed, 0 failed.*"), outcome.output());
    }
  }

  /**
   * The suite of the stateless revision, against the same jar: every scenario it scores for
   * 2026-07-28 passes, and so does the 2025-11-25 requirement set of the same suite. Scenarios it
   * runs but does not score (the tasks extension, pending ones) are reported, not asserted.
   */
  @Test
  void theModernConformanceSuitePassesEveryScoredScenarioInBothEras() throws Exception {
    try (PackagedSonde sonde = PackagedSonde.plainJar("--conformance")) {
      for (String revision : List.of("2026-07-28", "2025-11-25")) {
        NodeScript.Outcome outcome =
            NodeScript.run(
                Path.of("target/conformance-" + revision),
                900,
                NodeScript.script("node_modules/conformance-2026-07-28/dist/index.js"),
                "server",
                "--url",
                "http://localhost:" + sonde.port() + "/mcp",
                "--requirements",
                revision);
        String output = outcome.output();
        int notScored = output.indexOf("Not scored");
        String scored = notScored < 0 ? output : output.substring(0, notScored);
        String unscored = notScored < 0 ? "" : output.substring(notScored);
        Matcher failed = Pattern.compile("(?m)^✗ ([a-z0-9-]+):").matcher(scored);
        List<String> failing =
            failed.results().map(m -> m.group(1)).filter(s -> !unscored.contains(s)).toList();
        assertEquals(List.of(), failing, revision + ":\n" + output);
        long passed = Pattern.compile("(?m)^✓ ").matcher(scored).results().count();
        assertTrue(passed >= (revision.equals("2026-07-28") ? 37 : 33), revision + ":\n" + output);
      }
    }
  }

  @Test
  void withoutTheFlagNoFixtureIsServed() throws Exception {
    try (PackagedSonde sonde = PackagedSonde.plainJar()) {
      var client = new dev.sonde.support.HttpMcpClient(sonde.port());
      client.initialize("2025-11-25");
      String tools = client.request(1, "tools/list", null).encode();
      assertTrue(tools.contains("get_version"));
      assertTrue(!tools.contains("test_") && !tools.contains("json_schema"), tools);
      String resources = client.request(2, "resources/list", null).encode();
      assertTrue(resources.contains("sonde://guide") && !resources.contains("test://"), resources);
      String prompts = client.request(3, "prompts/list", null).encode();
      assertTrue(prompts.contains("write_sql") && !prompts.contains("test_"), prompts);
    }
  }

  @Test
  void headlessChromiumWatchesJobsLiveThroughAReconnectAndCancelsOne() throws Exception {
    chromiumOnTheSharedJar("job-view.mjs", 3, "job-view.png", 10_000);
  }

  @Test
  void headlessChromiumOnAnotherSiteCannotFrameCallOrConnect() throws Exception {
    chromiumOnTheSharedJar("cross-site.mjs", 7, "cross-site-frame-blocked.png", 5_000);
  }

  /** Runs a headless-Chromium script against the shared jar; it saves {@code screenshot}. */
  private static void chromiumOnTheSharedJar(
      String script, int passed, String screenshot, long minimumBytes) throws Exception {
    PackagedSonde sonde = PackagedHttpIT.Holder.get();
    Path shots = Path.of("target/screenshots").toAbsolutePath();
    Files.createDirectories(shots);
    NodeScript.Outcome outcome =
        NodeScript.run(
            Path.of("target"),
            180,
            NodeScript.script(script),
            String.valueOf(sonde.port()),
            shots.toString());
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains(passed + " passed, 0 failed"), outcome.output());
    assertTrue(Files.size(shots.resolve(screenshot)) > minimumBytes);
  }

  /**
   * Runs a headless-Chromium script against a jar with its own demo connection ({@code plant}; the
   * test processes turn the shared "demo" one into an empty memory DB) plus {@code connections}
   * (YAML under {@code connections:}), and checks its tally and that each screenshot has content.
   */
  private static void browserScript(
      String connections, String script, int seconds, int passed, String... screenshots)
      throws Exception {
    browserScript(
        browserConfig(connections, ""), List.of(), script, seconds, passed, 50_000, screenshots);
  }

  /** The browser scripts' configuration: {@code plant}, {@code connections}, then {@code more}. */
  private static Path browserConfig(String connections, String more) throws Exception {
    Path config = Files.createTempFile("sonde-browser-", ".yaml");
    Files.writeString(
        config,
        "databases:\n  defaultConnection: plant\n  connections:\n    plant:\n"
            + "      type: duckdb\n      path: plant.duckdb\n      demo: true\n      rollups: true\n"
            + connections
            + "docs:\n  enabled: false\n"
            + more);
    return config;
  }

  private static void browserScript(
      Path config,
      List<String> arguments,
      String script,
      int seconds,
      int passed,
      long minimumBytes,
      String... screenshots)
      throws Exception {
    Path shots = Path.of("target/screenshots").toAbsolutePath();
    Files.createDirectories(shots);
    try (PackagedSonde sonde = PackagedSonde.plainJar("--config", config.toString())) {
      List<String> command = new java.util.ArrayList<>();
      command.addAll(
          List.of(NodeScript.script(script), String.valueOf(sonde.port()), shots.toString()));
      command.addAll(arguments);
      NodeScript.Outcome outcome =
          NodeScript.run(Path.of("target"), seconds, command.toArray(String[]::new));
      assertEquals(0, outcome.exitCode(), outcome.output());
      assertTrue(outcome.output().contains(passed + " passed, 0 failed"), outcome.output());
      for (String shot : screenshots) {
        assertTrue(Files.size(shots.resolve(shot)) > minimumBytes, shot);
      }
    }
  }

  @Test
  void headlessChromiumSignsInWithATokenAndSeesOnlyItsOwnDashboards() throws Exception {
    Path tokens = Files.createTempDirectory("sonde-signin-").resolve("tokens.json");
    Path config = browserConfig("", "auth:\n  mode: tokens\n  tokensFile: \"" + tokens + "\"\n");
    browserScript(
        config,
        List.of(token(config, "alice", "basic-analysis"), token(config, "bob", "general")),
        "signin-view.mjs",
        240,
        9,
        15_000,
        "signin.png",
        "signin-dashboards.png",
        "signin-shared.png");
  }

  /**
   * A config whose default connection {@code shop} is a demo DuckDB at {@code database}, with the
   * retail domain pointed at it.
   */
  private static Path chatBiConfig(String database) throws Exception {
    Path ontology = Files.createTempDirectory("sonde-ontology-");
    Files.writeString(
        ontology.resolve("retail.yaml"),
        Files.readString(Path.of("conf/ontology/retail.yaml"))
            .replace("connection: demo", "connection: shop"));
    Path config = Files.createTempFile("sonde-chatbi-", ".yaml");
    Files.writeString(
        config,
        "databases:\n  defaultConnection: shop\n  connections:\n    shop:\n"
            + "      type: duckdb\n      path: "
            + database
            + "\n      demo: true\n"
            + "docs:\n  enabled: false\nchatbi:\n  ontology: "
            + ontology
            + "\n");
    return config;
  }

  @Test
  void theOfficialTypeScriptClientAsksChatBiOverHttpAndWebSocket() throws Exception {
    try (PackagedSonde sonde =
        PackagedSonde.plainJar("--config", chatBiConfig("shop.duckdb").toString())) {
      NodeScript.Outcome outcome =
          NodeScript.run(
              Path.of("target"),
              180,
              NodeScript.script("ts-chatbi.mjs"),
              String.valueOf(sonde.port()));
      assertEquals(0, outcome.exitCode(), outcome.output());
      assertTrue(outcome.output().contains("4 passed, 0 failed"), outcome.output());
    }
  }

  @Test
  void theTypeScriptSdkV2SpeaksTheModernRevisionAndV1TheOldOverHttpAndStdio() throws Exception {
    Path databases = Files.createTempDirectory("sonde-v2-");
    // stdio is a process of its own: its own database file, since DuckDB locks one per process
    Path stdioConfig = chatBiConfig(databases.resolve("stdio.duckdb").toString());
    try (PackagedSonde sonde =
        PackagedSonde.plainJar(
            "--config", chatBiConfig(databases.resolve("http.duckdb").toString()).toString())) {
      NodeScript.Outcome outcome =
          NodeScript.run(
              Path.of("target"),
              300,
              NodeScript.script("ts-v2.mjs"),
              String.valueOf(sonde.port()),
              stdioConfig.toString(),
              PackagedSonde.jar().toString());
      assertEquals(0, outcome.exitCode(), outcome.output());
      assertTrue(outcome.output().contains("10 passed, 0 failed"), outcome.output());
    }
  }

  @Test
  void headlessChromiumDrawsADashboardMadeThroughMcp() throws Exception {
    browserScript("", "dashboard-view.mjs", 240, 5, "dashboard.png");
  }

  @Test
  void forecastsAndAnalysisReportsThroughTheTypeScriptClientAndInHeadlessChromium()
      throws Exception {
    Path odd = Files.createTempDirectory("sonde-forecast-").resolve("odd.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + odd);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE READINGS (NAME VARCHAR, TIME TIMESTAMP, VALUE DOUBLE)");
      st.execute(
          "INSERT INTO READINGS SELECT '<script>alert(1)</script>', TIMESTAMP '2026-01-01'"
              + " + INTERVAL (d) DAY, 50 + 10 * sin(d / 5.0) + d * 0.1 FROM range(0, 200) t(d)");
    }
    browserScript(
        "    odd:\n      type: duckdb\n      path: " + odd + "\n",
        "forecast-report.mjs",
        300,
        11,
        "forecast-report.png",
        "vibration-report.png",
        "finance-report.png");
  }
}
