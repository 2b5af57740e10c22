package dev.sonde.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Every tool call leaves one audit line, refused ones too, with the statement hashed and cut. */
class AuditTrailTest {
  static long ids = 1;

  static JsonObject call(McpClient client, String tool, JsonObject arguments) {
    return client.request(
        ids++, "tools/call", new JsonObject().put("name", tool).put("arguments", arguments));
  }

  /** The day's lines once {@code ready} holds for them: they are written behind the answers. */
  static List<JsonObject> lines(Path file, Predicate<List<JsonObject>> ready) throws Exception {
    long until = System.nanoTime() + 60_000_000_000L;
    while (true) {
      List<JsonObject> lines =
          Files.exists(file)
              ? Files.readAllLines(file).stream().map(JsonObject::new).toList()
              : List.of();
      if (ready.test(lines) || System.nanoTime() > until) {
        return lines;
      }
      Thread.sleep(20);
    }
  }

  static String sha256(String text) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void eachCallOnEveryTransportLeavesOneLine() throws Exception {
    Path data = Files.createTempDirectory("sonde-audit-");
    InProcessSonde sonde =
        new InProcessSonde(
            Map.of(
                "auth.localToolsets",
                "data-query,system-information",
                "data.dir",
                data.toString()));
    try {
      McpClient http = sonde.connect("http");
      http.initialize("2025-11-25");
      McpClient socket = sonde.connect("websocket");
      socket.initialize("2025-11-25");
      McpClient modern = HttpMcpClient.modern(sonde.port());
      String sql = "SELECT 42 AS answer /* " + "x".repeat(600) + " */";
      for (McpClient client : List.of(http, socket, modern)) {
        call(client, "execute_query", new JsonObject().put("sql", sql));
      }
      call(http, "create_folder", new JsonObject().put("folder_name", "audited"));
      call(http, "execute_query", new JsonObject().put("sql", "SELECT * FROM no_such_table"));
      call(http, "describe_table", new JsonObject().put("table_name", "no_such_table"));
      Path today = data.resolve("audit").resolve(LocalDate.now(ZoneOffset.UTC) + ".jsonl");
      List<JsonObject> lines = lines(today, l -> l.size() >= 6);
      assertEquals(6, lines.size(), lines.toString());
      for (int i = 0; i < 3; i++) {
        JsonObject line = lines.get(i);
        assertEquals("local", line.getString("account"));
        assertEquals("execute_query", line.getString("tool"));
        assertEquals("ok", line.getString("outcome"), line.encode());
        assertEquals(1, line.getInteger("rows"));
        assertEquals(sha256(sql), line.getString("sqlSha256"));
        assertEquals(sql.substring(0, 500), line.getString("sql"));
        assertTrue(line.getLong("ms") >= 0);
      }
      assertEquals(
          List.of("streamable-http", "websocket", "streamable-http"),
          lines.subList(0, 3).stream().map(l -> l.getString("transport")).toList());
      JsonObject refused = lines.get(3);
      assertEquals("refused", refused.getString("outcome"));
      assertTrue(
          refused.getString("reason").startsWith("tool create_folder is not in your toolsets"),
          refused.encode());
      assertEquals("error", lines.get(4).getString("outcome"), lines.get(4).encode());
      assertTrue(lines.get(4).getString("reason").contains("no_such_table"));
      // of the arguments only the connection and the statement are kept
      java.util.Set<String> fields =
          java.util.Set.of(
              "time",
              "account",
              "transport",
              "tool",
              "connection",
              "sqlSha256",
              "sql",
              "rows",
              "ms",
              "outcome",
              "reason");
      lines.forEach(l -> assertTrue(fields.containsAll(l.fieldNames()), l.encode()));
      assertFalse(lines.get(5).containsKey("table_name"), lines.get(5).encode());
      assertFalse(Files.exists(data.resolve("workspace/local/audited")));

      JsonObject status =
          call(http, "debug_mcp_status", new JsonObject())
              .getJsonObject("result")
              .getJsonObject("structuredContent");
      assertEquals(6, status.getJsonObject("callsByAccount").getInteger("local"), status.encode());
    } finally {
      sonde.close();
    }
  }

  @Test
  void oldDaysAndTheOldestBeyondTheSizeAreDropped() throws Exception {
    Path dir = Files.createTempDirectory("sonde-audit-prune-");
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    Path ancient = Files.writeString(dir.resolve("2020-01-01.jsonl"), "{}\n");
    Path yesterday = dir.resolve(today.minusDays(1) + ".jsonl");
    Files.write(yesterday, new byte[2 * 1024 * 1024]);
    Path older = Files.writeString(dir.resolve(today.minusDays(2) + ".jsonl"), "{}\n");
    Path notADay = Files.writeString(dir.resolve("notes.txt"), "mine");
    Vertx vertx = Vertx.vertx();
    try {
      AuditTrail trail = AuditTrail.in(vertx, dir, 30, 1024 * 1024, (connection, account) -> null);
      trail.called(
          new Principal("local", Grant.everything()),
          "http",
          "get_version",
          new JsonObject(),
          System.nanoTime(),
          "ok",
          null,
          null);
      Path todays = dir.resolve(today + ".jsonl");
      lines(todays, l -> l.size() == 1 && !Files.exists(ancient) && !Files.exists(yesterday));
      assertFalse(Files.exists(ancient), "a day past keepDays is dropped");
      assertFalse(Files.exists(yesterday), "the oldest days go while over the size");
      assertFalse(Files.exists(older), "the oldest day goes first, though small");
      assertTrue(Files.exists(todays));
      assertTrue(Files.exists(notADay), "only audit days are touched");
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().join();
    }
  }
}
