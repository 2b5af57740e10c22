package dev.sonde.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.McpClient;
import dev.sonde.support.SharedSonde;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** explain_query on two engines, and execute_write: opt-in, one statement, transactional. */
class ExplainAndWriteTest {
  static JsonObject ok(String tool, JsonObject args) {
    JsonObject result = DatabaseSonde.call(tool, args);
    assertFalse(result.getBoolean("isError", false), result.encode());
    return result.getJsonObject("structuredContent");
  }

  static String refused(String tool, JsonObject args) {
    JsonObject result = DatabaseSonde.call(tool, args);
    assertTrue(result.getBoolean("isError", false), "expected a refusal: " + result.encode());
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  @Test
  void explainShowsThePlanAndAnalyzeShowsTimings() {
    String plan =
        ok(
                "explain_query",
                new JsonObject()
                    .put("sql", "SELECT store_id, count(*) FROM orders GROUP BY store_id"))
            .getString("plan");
    assertTrue(plan.contains("orders") || plan.toUpperCase().contains("SCAN"), plan);
    String analyzed =
        ok(
                "explain_query",
                new JsonObject().put("sql", "SELECT count(*) FROM orders").put("analyze", true))
            .getString("plan");
    assertTrue(
        analyzed.contains("Total Time") || analyzed.contains("Rows") || analyzed.contains("Time"),
        analyzed);
    String sqlite =
        ok(
                "explain_query",
                new JsonObject()
                    .put("connection", "chinook")
                    .put("sql", "SELECT * FROM Track WHERE TrackId = 1"))
            .getString("plan");
    assertTrue(
        sqlite.toUpperCase().contains("SEARCH") || sqlite.toUpperCase().contains("SCAN"), sqlite);
    assertTrue(
        refused("explain_query", new JsonObject().put("sql", "DELETE FROM orders"))
            .contains("rejected"));
    assertTrue(
        refused(
                "explain_query",
                new JsonObject()
                    .put("connection", "chinook")
                    .put("sql", "SELECT 1")
                    .put("analyze", true))
            .contains("no EXPLAIN ANALYZE"));
  }

  @Test
  void explainAnalyzeOfASlowQueryIsStoppedAtTheTimeout() {
    JsonObject quick = new JsonObject().put("connection", "quick");
    String refusal =
        refused(
            "explain_query",
            quick
                .copy()
                .put("sql", "SELECT sum(i) FROM range(1000000000000) t(i)")
                .put("analyze", true));
    assertTrue(refusal.contains("longer than 1 s"), refusal);
    assertTrue(
        ok("explain_query", quick.copy().put("sql", "SELECT 1").put("analyze", true))
                .getString("plan")
                .length()
            > 0);
  }

  @Test
  void writesAreTransactionalAndOnlyWhereAllowed() {
    JsonObject scratch = new JsonObject().put("connection", "scratch");
    assertEquals(
        1,
        ok(
                "execute_write",
                scratch.copy().put("sql", "INSERT INTO NOTES (ID, BODY) VALUES (1, 'first')"))
            .getInteger("affected_rows"));
    String duplicate =
        refused(
            "execute_write",
            scratch.copy().put("sql", "INSERT INTO NOTES (ID, BODY) VALUES (1, 'again')"));
    assertTrue(duplicate.contains("nothing was changed"), duplicate);
    assertEquals(
        1,
        ok(
                "execute_write",
                scratch.copy().put("sql", "UPDATE NOTES SET BODY = 'edited' WHERE ID = 1"))
            .getInteger("affected_rows"));
    assertEquals(
        "edited",
        ok("execute_query", scratch.copy().put("sql", "SELECT BODY FROM NOTES WHERE ID = 1"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getValue(0));
    assertTrue(
        refused("execute_write", scratch.copy().put("sql", "DROP TABLE NOTES"))
            .contains("not allowed here"));
    assertTrue(
        refused("execute_write", scratch.copy().put("sql", "SELECT * FROM NOTES"))
            .contains("use execute_query"));
    assertTrue(
        refused("execute_write", scratch.copy().put("sql", "DELETE FROM NOTES; DROP TABLE NOTES"))
            .contains("only one statement"));
    assertTrue(
        refused(
                "execute_write",
                scratch
                    .copy()
                    .put(
                        "sql", "INSERT INTO NOTES (ID, BODY) VALUES (2, FILE_READ('/etc/passwd'))"))
            .contains("file_read() is not allowed"));
    assertTrue(
        refused("execute_write", new JsonObject().put("sql", "DELETE FROM orders"))
            .contains("does not allow writes"));
    assertTrue(
        refused("execute_query", scratch.copy().put("sql", "DELETE FROM NOTES"))
            .contains("rejected"),
        "reads stay guarded on a writable connection");
    assertEquals(
        1,
        ok("execute_query", scratch.copy().put("sql", "SELECT count(*) FROM NOTES"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
  }

  @Test
  void executeWriteIsNotListedWhenNoConnectionAllowsWrites() {
    try (McpClient client = SharedSonde.get().connect("http")) {
      client.initialize("2025-11-25");
      String tools = client.request(1, "tools/list", null).encode();
      assertTrue(tools.contains("execute_query") && tools.contains("explain_query"));
      assertFalse(tools.contains("execute_write"), "no connection of this server allows writes");
    }
    String listed = DatabaseSonde.client().request(9000, "tools/list", null).encode();
    assertTrue(listed.contains("execute_write"), "the scratch connection allows writes");
  }
}
