package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.McpClient;
import dev.sonde.support.WebSocketMcpClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Where a person's answer helps, a tool asks through the client (multi-round-trip requests in the
 * modern era, elicitation/create on a legacy session): which of several same-named tables to
 * describe, and whether to run a write, shown with the rows it changes. A client that cannot ask
 * gets today's answer. Writes are checked by the rows they leave behind.
 */
class AskingTheUserTest {
  private static final JsonObject CAN_ASK = new JsonObject().put("elicitation", new JsonObject());
  private static final JsonObject SHOP = new JsonObject().put("connection", "shop");
  private static final JsonObject SCRATCH = new JsonObject().put("connection", "scratch");
  static HttpMcpClient client;
  static long ids = 1;

  @BeforeAll
  static void start() {
    client = HttpMcpClient.modern(DatabaseSonde.get().port());
    DatabaseSonde.call(
        "execute_write",
        SCRATCH.copy().put("sql", "INSERT INTO NOTES (ID, BODY) VALUES (900, 'asked')"));
  }

  /** One modern tools/call from a client that can elicit; the whole response. */
  static JsonObject call(String tool, JsonObject arguments, JsonObject extra) {
    JsonObject params =
        new JsonObject().put("name", tool).put("arguments", arguments).mergeIn(extra);
    return client.request(
        ids++, "tools/call", MultiRoundTripTest.withCapabilities(params, CAN_ASK));
  }

  static JsonObject answer(JsonObject asked, String key, JsonObject content, String action) {
    JsonObject response = new JsonObject().put("action", action);
    if (content != null) {
      response.put("content", content);
    }
    return new JsonObject()
        .put("inputResponses", new JsonObject().put(key, response))
        .put("requestState", asked.getString("requestState"));
  }

  /** The params of the elicitation an input-required result asks under {@code key}. */
  static JsonObject question(JsonObject asked, String key) {
    return asked.getJsonObject("inputRequests").getJsonObject(key).getJsonObject("params");
  }

  static String body() {
    return DatabaseSonde.call(
            "execute_query", SCRATCH.copy().put("sql", "SELECT BODY FROM NOTES WHERE ID = 900"))
        .getJsonObject("structuredContent")
        .getJsonArray("rows")
        .encode();
  }

  @Test
  void anAmbiguousTableNameIsAnsweredByThePersonsChoice() {
    JsonObject items = SHOP.copy().put("table_name", "items");
    JsonObject asked = call("describe_table", items, new JsonObject()).getJsonObject("result");
    assertEquals("input_required", asked.getString("resultType"), asked.encode());
    JsonObject form = question(asked, "table").getJsonObject("requestedSchema");
    assertEquals(
        new JsonArray().add("ARCHIVE.ITEMS").add("SALES.ITEMS"),
        form.getJsonObject("properties").getJsonObject("table").getJsonArray("enum"));
    JsonObject sales =
        call(
                "describe_table",
                items,
                answer(asked, "table", new JsonObject().put("table", "SALES.ITEMS"), "accept"))
            .getJsonObject("result");
    assertEquals("complete", sales.getString("resultType"), sales.encode());
    assertEquals(
        new JsonArray().add("ID"),
        sales.getJsonObject("structuredContent").getValue("primary_key"));
    // a table it was not offered is not described, nor is a declined question asked again
    for (JsonObject wrong :
        new JsonObject[] {
          answer(asked, "table", new JsonObject().put("table", "PUBLIC.NOTES"), "accept"),
          answer(asked, "table", null, "decline")
        }) {
      JsonObject refused = call("describe_table", items, wrong).getJsonObject("result");
      assertTrue(refused.getBoolean("isError"), refused.encode());
      assertTrue(
          refused.encode().contains("qualify it with the schema: ARCHIVE.ITEMS, SALES.ITEMS"),
          refused.encode());
    }
  }

  @Test
  void aClientThatCannotAskIsToldTheChoices() {
    JsonObject result =
        client
            .request(
                ids++,
                "tools/call",
                McpClient.modern(
                    new JsonObject()
                        .put("name", "describe_table")
                        .put("arguments", SHOP.copy().put("table_name", "items"))))
            .getJsonObject("result");
    assertTrue(result.getBoolean("isError"), result.encode());
    assertTrue(result.encode().contains("ARCHIVE.ITEMS, SALES.ITEMS"), result.encode());
  }

  @Test
  void aWriteIsShownWithItsRowsAndRunsOnlyWhenConfirmed() {
    JsonObject update =
        SCRATCH.copy().put("sql", "UPDATE NOTES SET BODY = 'confirmed' WHERE ID = 900");
    JsonObject asked = call("execute_write", update, new JsonObject()).getJsonObject("result");
    assertEquals("input_required", asked.getString("resultType"), asked.encode());
    String message = question(asked, "confirm").getString("message");
    assertTrue(message.contains("It changes 1 row now"), message);
    assertTrue(message.contains("UPDATE NOTES SET BODY = 'confirmed' WHERE ID = 900"), message);
    assertEquals("[[\"asked\"]]", body(), "counting the rows changed nothing");
    JsonObject declined =
        call(
                "execute_write",
                update,
                answer(asked, "confirm", new JsonObject().put("confirm", false), "accept"))
            .getJsonObject("result");
    assertTrue(declined.getBoolean("isError"), declined.encode());
    assertEquals("[[\"asked\"]]", body());
    // the confirmation of one statement does not run another
    JsonObject other =
        call(
            "execute_write",
            SCRATCH.copy().put("sql", "DELETE FROM NOTES WHERE ID = 900"),
            answer(asked, "confirm", new JsonObject().put("confirm", true), "accept"));
    assertNotNull(other.getJsonObject("error"), other.encode());
    assertEquals("[[\"asked\"]]", body());
    JsonObject done =
        call(
                "execute_write",
                update,
                answer(asked, "confirm", new JsonObject().put("confirm", true), "accept"))
            .getJsonObject("result");
    assertEquals(1, done.getJsonObject("structuredContent").getInteger("affected_rows"));
    assertEquals("[[\"confirmed\"]]", body());
  }

  @Test
  void aLegacySessionThatCanElicitIsAskedByTheServer() throws Exception {
    try (WebSocketMcpClient ws = new WebSocketMcpClient(DatabaseSonde.get().port())) {
      ws.request(
          0,
          "initialize",
          McpClient.initializeParams("2025-11-25", "sonde-tests").put("capabilities", CAN_ASK));
      ws.notify("notifications/initialized", null);
      CompletableFuture<JsonObject> pending =
          ws.send(
              5,
              "tools/call",
              new JsonObject()
                  .put("name", "describe_table")
                  .put("arguments", SHOP.copy().put("table_name", "items")));
      JsonObject asked = MultiRoundTripTest.awaitRequest(ws, "elicitation/create");
      assertTrue(asked.getJsonObject("params").getString("message").contains("'items'"));
      ws.socket()
          .sendText(
              new JsonObject()
                  .put("jsonrpc", "2.0")
                  .put("id", asked.getValue("id"))
                  .put(
                      "result",
                      new JsonObject()
                          .put("action", "accept")
                          .put("content", new JsonObject().put("table", "ARCHIVE.ITEMS")))
                  .encode(),
              true);
      JsonObject result = pending.get(60, TimeUnit.SECONDS).getJsonObject("result");
      assertFalse(result.getBoolean("isError", false), result.encode());
      assertTrue(
          result.getJsonObject("structuredContent").getString("table").contains("ARCHIVE.ITEMS"),
          result.encode());
    }
  }
}
