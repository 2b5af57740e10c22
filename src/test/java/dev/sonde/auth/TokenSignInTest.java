package dev.sonde.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.config.ConfigLoader;
import dev.sonde.config.SondeConfig;
import dev.sonde.core.Call;
import dev.sonde.jobs.Job;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import dev.sonde.support.WebSocketMcpClient;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Sonde in {@code auth.mode: tokens}, driven over the wire: every MCP and API door asks for a
 * token, each token acts as its account with its toolsets in both eras and on both socket
 * transports, a session belongs to the token that opened it, and a revoked token is refused without
 * a restart. Effects are checked on disk: refused calls made nothing, the audit names the token by
 * id, and no secret reaches any file Sonde writes.
 */
class TokenSignInTest {
  static Path dataDir;
  static Path tokenFile;
  static SondeConfig cliConfig;
  static InProcessSonde sonde;
  static String alice;
  static String bob;
  static String expired;
  static long ids = 1;

  @BeforeAll
  static void start() throws IOException {
    dataDir = Files.createTempDirectory("sonde-tokens-");
    tokenFile = dataDir.resolve("tokens.json");
    cliConfig = ConfigLoader.load(null, Map.of(), Map.of("auth.tokensFile", tokenFile.toString()));
    alice = create("alice", "data-query");
    bob = create("bob", "general");
    expired =
        new ApiTokens(tokenFile)
            .create("carol", List.of("general"), Instant.now().minusSeconds(60))
            .token();
    sonde =
        new InProcessSonde(
            Map.of(
                "auth.mode", "tokens",
                "auth.tokensFile", tokenFile.toString(),
                "data.dir", dataDir.toString()));
  }

  @AfterAll
  static void stop() {
    sonde.close();
  }

  /** A token made the way an administrator makes one: the command line, its stdout. */
  static String create(String account, String toolsets) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        TokenCommand.run(
            List.of("create", "--account", account, "--toolsets", toolsets),
            cliConfig,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertEquals(0, status);
    return out.toString(StandardCharsets.UTF_8).trim();
  }

  /** A token made while Sonde runs, once Sonde has read it (within a second). */
  static String createLive(String account, String toolsets) throws InterruptedException {
    String token = create(account, toolsets);
    eventually(
        "a token made while Sonde runs signs in",
        () ->
            send(to("/api/jobs").header("Authorization", "Bearer " + token).GET()).statusCode()
                == 200);
    return token;
  }

  static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static HttpRequest.Builder to(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sonde.port() + path));
  }

  static JsonObject tools(McpClient client) {
    return client.request(ids++, "tools/list", null).getJsonObject("result");
  }

  static List<String> toolNames(McpClient client) {
    return tools(client).getJsonArray("tools").stream()
        .map(t -> ((JsonObject) t).getString("name"))
        .sorted()
        .toList();
  }

  static JsonObject call(McpClient client, String tool, JsonObject arguments) {
    return client.request(
        ids++, "tools/call", new JsonObject().put("name", tool).put("arguments", arguments));
  }

  static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "still not so after 60 s: " + what);
      Thread.sleep(50);
    }
  }

  @Test
  void everyDoorAsksForATokenAndSaysHowToGetOne() {
    String initialize =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    for (HttpRequest.Builder request :
        List.of(
            to("/mcp")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(initialize)),
            to("/mcp").header("Accept", "text/event-stream").GET(),
            to("/api/jobs").GET(),
            to("/api/dashboards").GET(),
            to("/workspace/alice/report.html").GET())) {
      HttpResponse<String> refused = send(request);
      assertEquals(401, refused.statusCode(), refused.uri().toString());
      assertEquals(
          "Bearer realm=\"sonde\"",
          refused.headers().firstValue("WWW-Authenticate").orElse(""),
          refused.uri().toString());
      assertTrue(refused.body().contains("token create"), refused.body());
    }
    for (String wrong : List.of("sonde_0123456789abcdef_" + "x".repeat(43), "Basic Zm9vOmJhcg==")) {
      HttpResponse<String> refused = send(to("/api/jobs").header("Authorization", wrong).GET());
      assertEquals(401, refused.statusCode());
    }
    HttpResponse<String> badToken =
        send(to("/api/jobs").header("Authorization", "Bearer sonde_0123456789abcdef_nope").GET());
    assertTrue(
        badToken.headers().firstValue("WWW-Authenticate").orElse("").contains("invalid_token"));
    HttpResponse<String> late =
        send(to("/api/jobs").header("Authorization", "Bearer " + expired).GET());
    assertEquals(401, late.statusCode());
    assertTrue(late.body().contains("expired"), late.body());
    // the static pages carry no data: the sign-in happens where data is
    assertEquals(200, send(to("/").GET()).statusCode());
    assertEquals(
        200, send(to("/api/jobs").header("Authorization", "Bearer " + alice).GET()).statusCode());
  }

  @Test
  void aWebSocketWithoutATokenIsNeverUpgraded() {
    IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> new WebSocketMcpClient(sonde.port()));
    Throwable cause = refused.getCause().getCause();
    assertTrue(cause instanceof WebSocketHandshakeException, String.valueOf(cause));
    assertEquals(401, ((WebSocketHandshakeException) cause).getResponse().statusCode());
  }

  @Test
  void eachTokenActsAsItsAccountWithItsToolsetsInBothErasAndOnBothSockets() throws Exception {
    Path aliceFolder = dataDir.resolve("workspace").resolve("alice").resolve("made-by-alice");
    for (McpClient client : clients(alice)) {
      assertEquals(ToolsetsOverMcpTest.DATA_QUERY.stream().sorted().toList(), toolNames(client));
      JsonObject asked =
          call(client, "execute_query", new JsonObject().put("sql", "SELECT 42 AS x"));
      assertFalse(asked.getJsonObject("result").getBoolean("isError", false), asked.encode());
      JsonObject refused =
          call(client, "create_folder", new JsonObject().put("folder_name", "made-by-alice"));
      assertTrue(
          refused
              .getJsonObject("error")
              .getString("message")
              .startsWith("tool create_folder is not in your toolsets (data-query)"),
          refused.encode());
      client.close();
    }
    assertFalse(Files.exists(aliceFolder), "a refused call made a folder");
    for (McpClient client : clients(bob)) {
      List<String> names = toolNames(client);
      assertTrue(
          names.contains("create_folder") && !names.contains("delete_file"), names.toString());
      client.close();
    }
    HttpMcpClient modern = HttpMcpClient.modern(sonde.port()).bearer(bob);
    assertEquals("private", tools(modern).getString("cacheScope"), "tools/list differs per token");
    JsonObject whoami = call(bob(), "debug_mcp_status", new JsonObject()).getJsonObject("result");
    assertFalse(whoami.getBoolean("isError", false), whoami.encode());
  }

  static McpClient bob() {
    HttpMcpClient client = new HttpMcpClient(sonde.port()).bearer(bob);
    client.initialize("2025-11-25");
    return client;
  }

  static List<McpClient> clients(String token) {
    HttpMcpClient legacy = new HttpMcpClient(sonde.port()).bearer(token);
    legacy.initialize("2025-11-25");
    WebSocketMcpClient socket =
        new WebSocketMcpClient(sonde.port(), null, Map.of("Authorization", "Bearer " + token));
    socket.initialize("2025-11-25");
    return List.of(legacy, socket, HttpMcpClient.modern(sonde.port()).bearer(token));
  }

  @Test
  void theViewerShowsTheSignedInAccountsOwnDashboards() throws Exception {
    JsonObject made =
        call(
            HttpMcpClient.modern(sonde.port()).bearer(bob),
            "create_dashboard_with_charts",
            new JsonObject()
                .put("filename", "bobs/board.dsh")
                .put(
                    "charts",
                    new io.vertx.core.json.JsonArray()
                        .add(
                            new JsonObject()
                                .put("title", "t")
                                .put("type", "Text")
                                .put("text", "n"))));
    assertFalse(made.getJsonObject("result").getBoolean("isError", false), made.encode());
    assertTrue(
        Files.exists(dataDir.resolve("workspace/bob/bobs/board.dsh")), "saved in bob's folder");
    String bobs = send(to("/api/dashboards").header("Authorization", "Bearer " + bob).GET()).body();
    String alices =
        send(to("/api/dashboards").header("Authorization", "Bearer " + alice).GET()).body();
    assertTrue(bobs.contains("bobs/board.dsh"), bobs);
    assertFalse(alices.contains("bobs/board.dsh"), alices);
    assertEquals(
        404,
        send(to("/api/dashboards/bobs/board.dsh").header("Authorization", "Bearer " + alice).GET())
            .statusCode(),
        "alice's viewer does not open bob's board by its path");
    // the link names bob's account: alice reads the board there, and can change nothing of his
    String link = made.getJsonObject("result").getJsonObject("structuredContent").getString("link");
    assertEquals("/dashboards.html#bob/bobs/board.dsh", link);
    HttpResponse<String> shared =
        send(
            to("/api/dashboards/bob/bobs/board.dsh")
                .header("Authorization", "Bearer " + alice)
                .GET());
    assertEquals(200, shared.statusCode(), shared.body());
    byte[] before = Files.readAllBytes(dataDir.resolve("workspace/bob/bobs/board.dsh"));
    McpClient asAlice = HttpMcpClient.modern(sonde.port()).bearer(createLive("alice2", "general"));
    for (JsonObject change :
        List.of(
            new JsonObject()
                .put("filename", "bob/bobs/board.dsh")
                .put("overwrite", true)
                .put(
                    "charts",
                    new io.vertx.core.json.JsonArray()
                        .add(
                            new JsonObject()
                                .put("title", "x")
                                .put("type", "Text")
                                .put("text", "x"))),
            new JsonObject().put("filename", "bob/bobs/board.dsh").put("time_start", "now-1h"))) {
      JsonObject refused =
          call(
              asAlice,
              change.containsKey("charts")
                  ? "create_dashboard_with_charts"
                  : "update_dashboard_time_range",
              change);
      assertTrue(
          refused.getJsonObject("result").getBoolean("isError", false)
              && refused.encode().contains("its files can be read, never changed"),
          refused.encode());
    }
    assertTrue(
        java.util.Arrays.equals(
            before, Files.readAllBytes(dataDir.resolve("workspace/bob/bobs/board.dsh"))),
        "bob's board is unchanged");
    assertFalse(Files.exists(dataDir.resolve("workspace/alice2/bob")), "nothing made for alice2");
  }

  @Test
  void anAccountSeesAndCancelsOnlyItsOwnJobsUnlessItHoldsSystemInformation() throws Exception {
    String operator = create("olga", "system-information");
    Job bobs =
        sonde
            .sonde()
            .jobs()
            .start(UUID.randomUUID().toString(), "api_test", "s", "bob", Call.statementsOnly("t"));
    bobs.step("fetch", "bob's secret step");
    eventually(
        "the operator's token is read",
        () ->
            send(to("/api/jobs").header("Authorization", "Bearer " + operator).GET()).statusCode()
                == 200);
    String listedToAlice =
        send(to("/api/jobs").header("Authorization", "Bearer " + alice).GET()).body();
    assertFalse(listedToAlice.contains(bobs.id()), listedToAlice);
    for (String path : List.of("/api/jobs/" + bobs.id(), "/api/jobs/" + bobs.id() + "/events")) {
      assertEquals(
          404, send(to(path).header("Authorization", "Bearer " + alice).GET()).statusCode(), path);
    }
    assertEquals(
        404,
        send(to("/api/jobs/" + bobs.id()).header("Authorization", "Bearer " + alice).DELETE())
            .statusCode());
    assertEquals("running", bobs.status().wireName(), "alice could not cancel bob's job");
    assertTrue(
        send(to("/api/jobs").header("Authorization", "Bearer " + bob).GET())
            .body()
            .contains(bobs.id()));
    assertTrue(
        send(to("/api/jobs").header("Authorization", "Bearer " + operator).GET())
            .body()
            .contains(bobs.id()),
        "system information sees every account's jobs");
    HttpResponse<java.io.InputStream> stream =
        HttpClient.newHttpClient()
            .send(
                to("/api/jobs/events").header("Authorization", "Bearer " + alice).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
    try (java.io.BufferedReader lines =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
      // alice's own job's step is the marker: every event before it was read and filtered
      Job mine =
          sonde
              .sonde()
              .jobs()
              .start(
                  UUID.randomUUID().toString(), "api_test", "s", "alice", Call.statementsOnly("t"));
      mine.step("fetch", "alice's marker");
      String line;
      while ((line = lines.readLine()) != null && !line.contains("alice's marker")) {
        assertFalse(line.contains(bobs.id()), "bob's step reached alice's stream: " + line);
      }
      assertNotNull(line, "alice's own step never came");
      sonde.sonde().jobs().cancel(mine.id(), "done");
    }
    sonde.sonde().jobs().cancel(bobs.id(), "done");
  }

  @Test
  void theSignInPagesCookieReadsButChangesOnlyWithItsCsrfValue() {
    HttpResponse<String> signedIn =
        send(
            to("/api/session")
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        new JsonObject().put("token", alice).encode())));
    assertEquals(200, signedIn.statusCode(), signedIn.body());
    String setCookie = signedIn.headers().firstValue("Set-Cookie").orElse("");
    assertTrue(
        setCookie.toLowerCase(java.util.Locale.ROOT).contains("httponly")
            && setCookie.contains("SameSite=Strict"),
        setCookie);
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));
    String csrf = new JsonObject(signedIn.body()).getString("csrf");
    assertFalse(signedIn.body().contains(alice), "the answer does not repeat the token");
    Job job =
        sonde
            .sonde()
            .jobs()
            .start(
                UUID.randomUUID().toString(), "api_test", "s", "alice", Call.statementsOnly("t"));
    assertEquals(
        200, send(to("/api/jobs/" + job.id()).header("Cookie", cookie).GET()).statusCode());
    assertEquals(
        403, send(to("/api/jobs/" + job.id()).header("Cookie", cookie).DELETE()).statusCode());
    assertEquals("running", job.status().wireName(), "a change without the CSRF value changed it");
    assertEquals(
        202,
        send(to("/api/jobs/" + job.id())
                .header("Cookie", cookie)
                .header("X-Sonde-CSRF", csrf)
                .DELETE())
            .statusCode());
    assertEquals("cancelled", job.status().wireName());
    assertEquals(
        401,
        send(to("/mcp").header("Cookie", cookie).header("Accept", "text/event-stream").GET())
            .statusCode(),
        "the cookie is for the pages; MCP signs in with a bearer token");
    assertEquals(
        413,
        send(to("/api/session")
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"token\":\"" + "x".repeat(20_000) + "\"}")))
            .statusCode());
  }

  @Test
  void aModernTaskBelongsToTheTokenThatStartedItNotToItsAccount() throws InterruptedException {
    String strong = createLive("erin", "general");
    String weak = createLive("erin", "report");
    HttpMcpClient starter = HttpMcpClient.modern(sonde.port()).bearer(strong);
    JsonObject params =
        McpClient.modernWithTasks(
            new JsonObject()
                .put("name", "test_slow_job")
                .put("arguments", new JsonObject().put("steps", 600).put("stepMillis", 50)));
    JsonObject created = starter.request(ids++, "tools/call", params).getJsonObject("result");
    String taskId = created.getString("taskId");
    assertNotNull(taskId, created.encode());
    JsonObject get = McpClient.modernWithTasks(new JsonObject().put("taskId", taskId));
    assertNotNull(starter.request(ids++, "tasks/get", get).getJsonObject("result"));
    for (String method : List.of("tasks/get", "tasks/cancel")) {
      JsonObject refused =
          HttpMcpClient.modern(sonde.port()).bearer(weak).request(ids++, method, get);
      assertNotNull(refused.getJsonObject("error"), method + ": " + refused.encode());
    }
    assertEquals(
        "working",
        starter.request(ids++, "tasks/get", get).getJsonObject("result").getString("status"),
        "the weaker token could not cancel it");
    starter.request(ids++, "tasks/cancel", get);
  }

  @Test
  void aSessionBelongsToTheTokenThatOpenedIt() {
    HttpMcpClient owner = new HttpMcpClient(sonde.port()).bearer(alice);
    owner.initialize("2025-11-25");
    HttpResponse<String> stolen =
        send(
            to("/mcp")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + bob)
                .header("Mcp-Session-Id", owner.sessionId())
                .header("MCP-Protocol-Version", "2025-11-25")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":"
                            + "\"execute_query\",\"arguments\":{\"sql\":\"SELECT 1\"}}}")));
    assertEquals(404, stolen.statusCode(), stolen.body());
    HttpResponse<String> ended =
        send(
            to("/mcp")
                .header("Authorization", "Bearer " + bob)
                .header("Mcp-Session-Id", owner.sessionId())
                .DELETE());
    assertEquals(404, ended.statusCode(), "another token cannot end the session either");
    assertEquals(
        ToolsetsOverMcpTest.DATA_QUERY.stream().sorted().toList(),
        toolNames(owner),
        "the owner's session lives on");
  }

  /**
   * A stateless call and a modern task belong to no session whose end would stop them: revoking the
   * token stops both within the sign-out sweep, which the job registry shows.
   */
  @Test
  void aRevokedTokensStatelessCallAndTaskAreStopped() throws Exception {
    String frank = createLive("frank", "general");
    HttpMcpClient modern = HttpMcpClient.modern(sonde.port()).bearer(frank);
    JsonObject slow =
        new JsonObject()
            .put("name", "test_slow_job")
            .put("arguments", new JsonObject().put("steps", 1000).put("stepMillis", 100));
    String taskId =
        modern
            .request(ids++, "tools/call", McpClient.modernWithTasks(slow.copy()))
            .getJsonObject("result")
            .getString("taskId");
    java.util.concurrent.CompletableFuture<JsonObject> plain =
        modern.send(ids++, "tools/call", slow.copy());
    eventually(
        "both of frank's calls run",
        () ->
            sonde.sonde().jobs().list().stream()
                    .filter(
                        j ->
                            "frank".equals(j.account())
                                && j.status() == dev.sonde.jobs.JobStatus.RUNNING)
                    .count()
                == 2);
    assertEquals(
        0,
        TokenCommand.run(
            List.of("revoke", ApiTokens.parts(frank)[0]),
            cliConfig,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    eventually(
        "neither of frank's calls runs once his token is revoked",
        () ->
            sonde.sonde().jobs().list().stream()
                .filter(j -> "frank".equals(j.account()))
                .noneMatch(j -> j.status() == dev.sonde.jobs.JobStatus.RUNNING));
    JsonObject answered = plain.get(30, TimeUnit.SECONDS);
    assertFalse(answered.encode().contains("\"isError\":false"), answered.encode());
    assertNotNull(taskId);
  }

  @Test
  void aRevokedTokenIsRefusedWithoutARestartAndItsSocketCloses() throws Exception {
    String dave = create("dave", "report");
    HttpMcpClient modern = HttpMcpClient.modern(sonde.port()).bearer(dave);
    eventually(
        "a token made while Sonde runs signs in",
        () ->
            send(to("/api/jobs").header("Authorization", "Bearer " + dave).GET()).statusCode()
                == 200);
    assertEquals(List.of("save_html_report"), toolNames(modern));
    WebSocketMcpClient socket =
        new WebSocketMcpClient(sonde.port(), null, Map.of("Authorization", "Bearer " + dave));
    socket.initialize("2025-11-25");
    HttpResponse<java.io.InputStream> events =
        HttpClient.newHttpClient()
            .send(
                to("/api/jobs/events").header("Authorization", "Bearer " + dave).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
    java.util.concurrent.CompletableFuture<Boolean> feed =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try (java.io.InputStream body = events.body()) {
                body.readAllBytes();
                return true;
              } catch (IOException e) {
                return true;
              }
            });
    String id = ApiTokens.parts(dave)[0];
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(
        0,
        TokenCommand.run(
            List.of("revoke", id),
            cliConfig,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
    eventually(
        "the revoked token is refused",
        () ->
            send(to("/api/jobs").header("Authorization", "Bearer " + dave).GET()).statusCode()
                == 401);
    HttpResponse<String> refused =
        modern.raw(
            modern
                .post(
                    new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/list"))
                .build());
    assertEquals(401, refused.statusCode());
    assertTrue(
        List.of(1001, 1008).contains(socket.closeCode.get(30, TimeUnit.SECONDS)),
        "the open socket is closed though it sends nothing");
    assertTrue(feed.get(30, TimeUnit.SECONDS), "the open job feed ends");
  }

  @Test
  void theAuditNamesTheTokenByIdAndNoSecretReachesAnyFile() throws Exception {
    McpClient client = HttpMcpClient.modern(sonde.port()).bearer(alice);
    call(client, "execute_query", new JsonObject().put("sql", "SELECT 'audited' AS x"));
    call(client, "delete_file", new JsonObject().put("filename", "x.chart.json"));
    String aliceId = ApiTokens.parts(alice)[0];
    Path audit = dataDir.resolve("audit");
    eventually(
        "both calls are in the audit",
        () ->
            lines(audit).stream().anyMatch(l -> l.contains("delete_file") && l.contains(aliceId)));
    List<JsonObject> mine =
        lines(audit).stream().filter(l -> l.contains(aliceId)).map(JsonObject::new).toList();
    assertTrue(mine.stream().anyMatch(l -> "SELECT 'audited' AS x".equals(l.getString("sql"))));
    assertEquals(
        "rwx------",
        java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(audit)),
        "every account's statements are readable by Sonde's user alone");
    assertTrue(
        mine.stream()
            .anyMatch(
                l ->
                    l.getString("tool").equals("delete_file")
                        && l.getString("outcome").equals("refused")),
        mine.toString());
    assertTrue(
        mine.stream()
            .allMatch(
                l ->
                    l.getString("account").equals("alice")
                        && l.getString("tokenId").equals(aliceId)));
    for (String token : List.of(alice, bob, expired)) {
      String secret = ApiTokens.parts(token)[1];
      try (Stream<Path> files = Files.walk(dataDir)) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          assertFalse(
              Files.readString(file, StandardCharsets.ISO_8859_1).contains(secret),
              "a token's secret is in " + dataDir.relativize(file));
        }
      }
    }
  }

  static List<String> lines(Path dir) {
    try (Stream<Path> days = Files.list(dir)) {
      return days.flatMap(
              d -> {
                try {
                  return Files.readAllLines(d).stream();
                } catch (IOException e) {
                  return Stream.empty();
                }
              })
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
