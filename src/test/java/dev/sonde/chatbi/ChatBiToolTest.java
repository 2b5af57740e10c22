package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** chat_bi through MCP on the demo retail database and Chinook. */
class ChatBiToolTest {
  static HttpMcpClient client;
  static ToolCalls tools;

  @BeforeAll
  static void connect() {
    client = new HttpMcpClient(DatabaseSonde.get().port());
    client.initialize("2025-11-25");
    tools = new ToolCalls(client);
  }

  static JsonObject ask(String nlq, String domain) {
    JsonObject args = new JsonObject().put("nlq", nlq);
    if (domain != null) {
      args.put("domain", domain);
    }
    return tools.ok("chat_bi", args);
  }

  static List<String> steps(JsonObject envelope) {
    return envelope.getJsonObject("bizresult").getJsonArray("trace").stream()
        .map(s -> ((JsonObject) s).getString("step"))
        .toList();
  }

  @Test
  void theReferenceQuestionIsAnsweredWithRowsSqlTraceAndProgressCarryingTheClientsToken()
      throws Exception {
    JsonObject call =
        new JsonObject()
            .put("name", "chat_bi")
            .put("arguments", new JsonObject().put("nlq", "最近一个月销售额最高的前10个产品是什么？"))
            .put("_meta", new JsonObject().put("progressToken", "bi-1"));
    JsonObject result =
        client.send(501, "tools/call", call).get(120, TimeUnit.SECONDS).getJsonObject("result");
    assertFalse(result.getBoolean("isError", false), result.encode());
    JsonObject envelope = result.getJsonObject("structuredContent");
    assertTrue(envelope.getBoolean("success"), envelope.encode());
    assertEquals(List.of(), envelope.getJsonArray("errormsg").getList());
    JsonObject biz = envelope.getJsonObject("bizresult");
    assertTrue(biz.getString("reqId").matches("\\d{14}-[0-9a-f]{32}"), biz.getString("reqId"));
    assertTrue(biz.getString("sql").contains("LIMIT 10"), biz.getString("sql"));
    JsonObject data = biz.getJsonObject("data");
    assertEquals(List.of("products_name", "sales"), data.getJsonArray("columns").getList());
    assertEquals(10, data.getInteger("rowCount"));
    assertEquals(10, data.getJsonArray("rows").size());
    assertTrue(data.getJsonArray("rows").getJsonObject(0).containsKey("products_name"));
    assertFalse(data.getBoolean("truncated"));
    assertEquals(List.of("retrieve", "generate", "validate", "execute"), steps(envelope));
    String readable = result.getJsonArray("content").getJsonObject(0).getString("text");
    assertTrue(readable.startsWith("10 rows:\n| products_name | sales |"), readable);
    assertTrue(readable.contains("```sql\nSELECT"), readable);

    List<JsonObject> progress =
        client.received().stream()
            .filter(m -> "notifications/progress".equals(m.getString("method")))
            .map(m -> m.getJsonObject("params"))
            .filter(p -> "bi-1".equals(p.getValue("progressToken")))
            .toList();
    List<String> stepNames =
        progress.stream()
            .map(p -> p.getJsonObject("_meta").getJsonObject("traceStep").getString("step"))
            .filter(s -> !s.equals("started") && !s.equals("done"))
            .toList();
    assertEquals(List.of("retrieve", "generate", "validate", "execute"), stepNames);
    for (int i = 1; i < progress.size(); i++) {
      assertTrue(
          progress.get(i - 1).getDouble("progress") <= progress.get(i).getDouble("progress"));
    }
    JsonObject retrieve =
        progress.stream()
            .map(p -> p.getJsonObject("_meta").getJsonObject("traceStep"))
            .filter(t -> t.getString("step").equals("retrieve"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        retrieve
            .getJsonObject("data")
            .getJsonObject("data")
            .getJsonArray("tables")
            .contains("products"),
        retrieve.encode());

    String reqId = biz.getString("reqId");
    Path day =
        Path.of("target/test-data/chatbi/trace")
            .resolve(
                reqId.substring(0, 4) + "-" + reqId.substring(4, 6) + "-" + reqId.substring(6, 8));
    List<String> lines = Files.readAllLines(day.resolve(reqId + ".jsonl"));
    assertEquals(5, lines.size(), "the question, then one line per step");
    assertEquals("最近一个月销售额最高的前10个产品是什么？", new JsonObject(lines.get(0)).getString("nlq"));
    assertEquals("execute", new JsonObject(lines.get(4)).getString("step"));
  }

  @Test
  void theStoresAboveAverageQuestionAndChinookByName() {
    JsonObject stores = ask("Which stores hold more stock than average, with their city?", null);
    assertTrue(stores.getBoolean("success"), stores.encode());
    JsonArray rows = stores.getJsonObject("bizresult").getJsonObject("data").getJsonArray("rows");
    assertTrue(rows.size() > 0 && rows.size() < 24, rows.encode());
    assertTrue(rows.getJsonObject(0).containsKey("stores_city"), rows.encode());
    JsonObject chinook = ask("How many tracks are there in each genre?", "chinook");
    assertTrue(chinook.getBoolean("success"), chinook.encode());
    JsonArray genres =
        chinook.getJsonObject("bizresult").getJsonObject("data").getJsonArray("rows");
    assertEquals(25, genres.size(), chinook.getJsonObject("bizresult").getString("sql"));
    assertEquals("Rock", genres.getJsonObject(0).getString("genre_name"));
    assertEquals(1297, genres.getJsonObject(0).getInteger("count_track"));
  }

  @Test
  void businessFailuresAreEnvelopesWithTheReasonNotProtocolErrors() {
    JsonObject empty = ask("  ", null);
    assertFalse(empty.getBoolean("success"));
    assertEquals(
        List.of("自然语言问句（nlq）不能为空", "The question (nlq) is empty; ask something."),
        empty.getJsonArray("errormsg").getList());
    JsonObject paris = ask("What were the sales in Paris last year?", null);
    assertFalse(paris.getBoolean("success"));
    assertTrue(
        paris.getJsonObject("bizresult").getString("error").contains("'Paris' is not a value"),
        paris.encode());
    assertEquals(List.of("retrieve", "generate"), steps(paris));
    JsonObject unknown = ask("total sales", "nowhere");
    assertEquals(
        List.of("no domain 'nowhere'; domains: [chinook, retail]"),
        unknown.getJsonArray("errormsg").getList());
  }
}
