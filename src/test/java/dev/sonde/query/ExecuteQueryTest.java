package dev.sonde.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** execute_query through MCP: rendering, budgets, the guard per engine, timeouts, cancellation. */
class ExecuteQueryTest {
  static JsonObject ok(String sql) {
    return ok(new JsonObject().put("sql", sql));
  }

  static JsonObject ok(JsonObject args) {
    JsonObject result = DatabaseSonde.call("execute_query", args);
    assertFalse(result.getBoolean("isError", false), result.encode());
    return result.getJsonObject("structuredContent");
  }

  static String refused(String sql) {
    return refused(new JsonObject().put("sql", sql));
  }

  static String refused(JsonObject args) {
    JsonObject result = DatabaseSonde.call("execute_query", args);
    assertTrue(result.getBoolean("isError", false), "expected a refusal: " + result.encode());
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  @Test
  void aQueryReturnsColumnsRowsAndCounts() {
    JsonObject result = ok("SELECT count(*) AS n, count(DISTINCT store_id) AS stores FROM orders");
    assertEquals("n", result.getJsonArray("columns").getJsonObject(0).getString("name"));
    assertEquals(new JsonArray().add(120000).add(24), result.getJsonArray("rows").getJsonArray(0));
    assertEquals(1, result.getInteger("row_count"));
    assertFalse(result.getBoolean("truncated"));
    assertTrue(result.getLong("elapsed_ms") >= 0);
  }

  @Test
  void valuesKeepTheirPrecision() {
    JsonArray row =
        ok("SELECT 12345.67::DECIMAL(10,2) AS d, 9007199254740993::BIGINT AS big, 42::BIGINT AS small,"
                + " 170141183460469231731687303715884105727::HUGEINT AS huge, 1.5::DOUBLE AS x, 'x'::VARCHAR AS s, NULL AS nothing,"
                + " DATE '2024-02-29' AS d2")
            .getJsonArray("rows")
            .getJsonArray(0);
    assertEquals("12345.67", row.getValue(0));
    assertEquals("9007199254740993", row.getValue(1));
    assertEquals(42, row.getInteger(2));
    assertEquals("170141183460469231731687303715884105727", row.getValue(3));
    assertEquals(1.5, row.getDouble(4));
    assertEquals("x", row.getValue(5));
    assertEquals(null, row.getValue(6));
    assertEquals("2024-02-29", row.getValue(7));
  }

  @Test
  void timesFollowTheFormatAndZone() {
    String sql = "SELECT TIMESTAMP '2024-01-02 03:04:05.123456' AS t";
    assertEquals(
        "2024-01-02T03:04:05.123456Z", ok(sql).getJsonArray("rows").getJsonArray(0).getValue(0));
    assertEquals(
        "2024-01-02T11:04:05.123456+08:00",
        ok(new JsonObject().put("sql", sql).put("timezone", "Asia/Shanghai"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getValue(0));
    assertEquals(
        1704164645123L,
        ok(new JsonObject().put("sql", sql).put("timeformat", "ms"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getLong(0));
    assertEquals(
        1704164645123456L,
        ok(new JsonObject().put("sql", sql).put("timeformat", "us"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getLong(0));
    assertEquals(
        "1704164645123456000",
        ok(new JsonObject().put("sql", sql).put("timeformat", "ns"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getValue(0));
    assertTrue(
        refused(new JsonObject().put("sql", sql).put("timezone", "Mars/Olympus")).contains("IANA"));
  }

  @Test
  void binaryIsBase64WhenShortAndItsSizeWhenLong() {
    JsonArray row =
        ok("SELECT '\\xAA\\xBB'::BLOB AS small, repeat('a', 300)::BLOB AS large")
            .getJsonArray("rows")
            .getJsonArray(0);
    assertEquals("qrs=", row.getValue(0));
    assertEquals("<binary 300 bytes>", row.getValue(1));
  }

  @Test
  void rowsAreCappedByLimitAndTheNoteSaysWhatToDo() {
    JsonObject result =
        ok(
            new JsonObject()
                .put("sql", "SELECT order_id FROM orders ORDER BY order_id")
                .put("limit", 5));
    assertEquals(5, result.getInteger("row_count"));
    assertTrue(result.getBoolean("truncated"));
    assertTrue(result.getString("note").contains("Aggregate"));
    JsonObject exact = ok(new JsonObject().put("sql", "SELECT * FROM range(5)").put("limit", 5));
    assertFalse(exact.getBoolean("truncated"), "exactly the limit is not truncated");
  }

  @Test
  void wholeRowsAreKeptWithinTheCharacterBudget() {
    JsonObject result = ok("SELECT repeat('y', 1500) AS s FROM range(5)");
    assertEquals(2, result.getInteger("row_count"), "2 x 1500 fit in 4000 characters, 3 do not");
    assertTrue(result.getBoolean("truncated"));
  }

  @Test
  void aFirstRowTooLongAloneIsCut() {
    JsonArray row =
        ok("SELECT 'abc' AS a, repeat('x', 10000) AS big, 7 AS n")
            .getJsonArray("rows")
            .getJsonArray(0);
    assertEquals("abc", row.getValue(0));
    assertEquals("x".repeat(3997) + "…", row.getValue(1));
    assertEquals("…", row.getValue(2));
  }

  @Test
  void csvFormat() {
    JsonObject result =
        ok(
            new JsonObject()
                .put("sql", "SELECT 'a,b' AS x, 'say \"hi\"' AS y")
                .put("format", "csv"));
    assertEquals("x,y\r\n\"a,b\",\"say \"\"hi\"\"\"\r\n", result.getString("csv"));
  }

  @Test
  void aHugeSelectStarAnswersTruncated() {
    JsonObject result = ok("SELECT * FROM \"VIBRATION\"");
    assertTrue(result.getBoolean("truncated"));
    assertTrue(result.getInteger("row_count") > 0 && result.getInteger("row_count") <= 1000);
  }

  @Test
  void duckDbReadFormsAreAllowed() {
    for (String sql :
        List.of(
            "FROM stores LIMIT 2",
            "SUMMARIZE stores",
            "DESCRIBE stores",
            "SHOW TABLES",
            "PIVOT stores ON region IN ('north', 'south') USING count(*)",
            "SELECT region, count(*) FROM stores GROUP BY ALL",
            "SELECT city, row_number() OVER (PARTITION BY region ORDER BY city) AS r FROM stores QUALIFY r = 1",
            "WITH big AS (SELECT * FROM orders WHERE store_id = 1) SELECT count(*) FROM big",
            "VALUES (1, 'a'), (2, 'b')",
            "SELECT 1 UNION ALL SELECT 2",
            "/* a note */ SELECT 1 -- and a comment")) {
      ok(sql);
    }
  }

  @Test
  void theGuardRefusesWritesEscapesAndTricksOnDuckDb() {
    assertTrue(refused("DELETE FROM orders").contains("only reads are allowed"));
    assertTrue(refused("SELECT 1; DROP TABLE orders").contains("only one statement"));
    assertTrue(refused("SELECT 1; COMMIT; DROP TABLE orders").contains("only one statement"));
    assertTrue(
        refused("SELECT * FROM read_csv('/etc/passwd')").contains("read_csv() is not allowed"));
    assertTrue(
        refused("SELECT * FROM READ_CSV_AUTO ('/etc/passwd')")
            .contains("read_csv_auto() is not allowed"));
    assertTrue(
        refused("SELECT * FROM \"read_parquet\"('x.parquet')")
            .contains("read_parquet() is not allowed"));
    assertTrue(refused("SELECT * FROM '/etc/passwd'").contains("looks like a file"));
    assertTrue(
        refused("PIVOT '/etc/passwd' ON a IN ('x') USING count(*)").contains("looks like a file"));
    // a PIVOT that DuckDB plans as several statements is never sent
    assertTrue(refused("PIVOT stores ON region USING count(*)").contains("without an IN list"));
    assertTrue(
        refused("PIVOT (SELECT * FROM read_text('/etc/passwd')) ON a USING count(*)")
            .contains("read_text() is not allowed"));
    assertTrue(
        refused("PIVOT (DELETE FROM orders RETURNING *) ON status USING count(*)")
            .contains("rejected"));
    assertTrue(
        refused("SELECT * FROM query('DELETE FROM orders')").contains("query() is not allowed"));
    assertTrue(refused("SELECT getenv('HOME')").contains("getenv() is not allowed"));
    assertTrue(refused("SELECT nextval('s')").contains("nextval() is not allowed"));
    assertTrue(refused("COPY orders TO '/tmp/orders.csv'").contains("only reads"));
    assertTrue(refused("ATTACH '/tmp/other.duckdb'").contains("only reads"));
    assertTrue(refused("INSTALL httpfs").contains("only reads"));
    assertTrue(refused("SET enable_external_access = true").contains("only reads"));
    assertTrue(
        refused("WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d").contains("refused"));
    assertTrue(refused("/* nothing but a comment */").contains("only comments"));
    assertTrue(refused("SELECT 'unclosed").contains("unclosed string"));
    assertTrue(refused("SELECT $$unclosed").contains("unclosed dollar"));
    assertEquals(
        120000,
        ok("SELECT count(*) FROM orders").getJsonArray("rows").getJsonArray(0).getInteger(0),
        "nothing was deleted");
  }

  @Test
  void theGuardRefusesOnSqliteAndH2WithTheGeneralParser() {
    JsonObject chinook = new JsonObject().put("connection", "chinook");
    assertTrue(
        refused(chinook.copy().put("sql", "DELETE FROM Track")).contains("DELETE changes data"));
    assertTrue(
        refused(chinook.copy().put("sql", "SELECT 1; DELETE FROM Track"))
            .contains("only one statement"));
    assertTrue(
        refused(chinook.copy().put("sql", "SELECT load_extension('/tmp/x.so')"))
            .contains("load_extension() is not allowed"));
    assertTrue(
        refused(
                    chinook
                        .copy()
                        .put("sql", "WITH d AS (DELETE FROM Track RETURNING *) SELECT * FROM d"))
                .contains("refused")
            || refused(
                    chinook
                        .copy()
                        .put("sql", "WITH d AS (DELETE FROM Track RETURNING *) SELECT * FROM d"))
                .contains("rejected"));
    assertTrue(refused(chinook.copy().put("sql", "CREATE TABLE x (id INT)")).contains("rejected"));
    assertTrue(refused(chinook.copy().put("sql", "PRAGMA query_only = OFF")).contains("rejected"));
    assertEquals(
        3503,
        ok(chinook.copy().put("sql", "SELECT count(*) FROM Track"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
    JsonObject shop = new JsonObject().put("connection", "shop");
    assertTrue(
        refused(shop.copy().put("sql", "SELECT * FROM SALES.ITEMS FOR UPDATE"))
            .contains("FOR UPDATE"));
    assertTrue(
        refused(shop.copy().put("sql", "SELECT FILE_READ('/etc/passwd')"))
            .contains("file_read() is not allowed"));
    assertTrue(
        refused(shop.copy().put("sql", "SELECT * INTO NEWTABLE FROM SALES.ITEMS"))
            .contains("rejected"));
  }

  @Test
  void inEngineOnlyModeTheEngineStillRefusesWrites() {
    JsonObject engineOnly = new JsonObject().put("connection", "engineonly");
    // the lexer still refuses a statement whose first keyword is not a read
    assertTrue(
        refused(engineOnly.copy().put("sql", "DELETE FROM Track"))
            .contains("DELETE is not a read"));
    // a write behind a read's first keyword is refused below the guard: by the driver (a prepared
    // DELETE returns no rows) or by query_only
    String refusal =
        refused(engineOnly.copy().put("sql", "WITH x AS (SELECT 1) DELETE FROM Track"));
    assertTrue(
        refusal.contains("does not return results") || refusal.toLowerCase().contains("readonly"),
        refusal);
    assertTrue(
        refused(engineOnly.copy().put("sql", "SELECT 1; DELETE FROM Track"))
            .contains("only one statement"));
    assertEquals(
        3503,
        ok(engineOnly.copy().put("sql", "SELECT count(*) FROM Track"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
  }

  @Test
  void engineOnlyIsRefusedOnAnEngineThatDoesNotEnforceReadOnly() {
    // H2 ignores read-only connections: without the parser, a DROP TABLE would run
    String refusal =
        refused(new JsonObject().put("connection", "h2engine").put("sql", "DROP TABLE T"));
    assertTrue(
        refusal.contains("h2 does not enforce") && refusal.contains("use guard: strict"), refusal);
    JsonObject health =
        DatabaseSonde.call("health_check", new JsonObject()).getJsonObject("structuredContent");
    assertTrue(
        health
            .getJsonObject("connections")
            .getJsonObject("h2engine")
            .getString("error")
            .contains("guard: strict"));
  }

  @Test
  void aSlowQueryIsStoppedAtTheTimeoutAndTheConnectionStaysUsable() {
    JsonObject quick = new JsonObject().put("connection", "quick");
    String refusal =
        refused(quick.copy().put("sql", "SELECT sum(i) FROM range(1000000000000) t(i)"));
    assertTrue(refusal.contains("longer than 1 s"), refusal);
    assertEquals(
        1,
        ok(quick.copy().put("sql", "SELECT 1")).getJsonArray("rows").getJsonArray(0).getInteger(0));
  }

  @Test
  void cancellingACallStopsItsStatement() throws Exception {
    var client = DatabaseSonde.client();
    CompletableFuture<JsonObject> pending =
        client.send(
            777,
            "tools/call",
            new JsonObject()
                .put("name", "execute_query")
                .put(
                    "arguments",
                    new JsonObject().put("sql", "SELECT sum(i) FROM range(1000000000000) t(i)")));
    Thread.sleep(300);
    client.notify(
        "notifications/cancelled", new JsonObject().put("requestId", 777).put("reason", "enough"));
    long end = System.currentTimeMillis() + 10_000;
    int active;
    do {
      Thread.sleep(50);
      active =
          DatabaseSonde.call("health_check", new JsonObject())
              .getJsonObject("structuredContent")
              .getJsonObject("connections")
              .getJsonObject("demo")
              .getJsonObject("pool")
              .getInteger("active");
    } while (active > 1 && System.currentTimeMillis() < end);
    assertTrue(active <= 1, "the cancelled statement still holds its connection");
    assertFalse(
        pending.isDone() && pending.get().containsKey("result"),
        "a cancelled call answers nothing");
  }

  @ParameterizedTest
  @ValueSource(strings = {"down", "downpg"})
  void anUnreachableConnectionIsReportedWhileTheOthersWork(String down) {
    String refusal = refused(new JsonObject().put("connection", down).put("sql", "SELECT 1"));
    assertTrue(
        refusal.contains("not available right now") && refusal.contains("retried every 30 s"),
        refusal);
    JsonObject health =
        DatabaseSonde.call("health_check", new JsonObject()).getJsonObject("structuredContent");
    assertEquals("degraded", health.getString("status"));
    assertFalse(health.getJsonObject("connections").getJsonObject(down).getBoolean("ok"));
    assertTrue(health.getJsonObject("connections").getJsonObject("demo").getBoolean("ok"));
    assertEquals(1, ok("SELECT 1").getJsonArray("rows").getJsonArray(0).getInteger(0));
  }

  @Test
  void duckDbItselfRefusesFilesWhenOnlyTheEngineGuards() {
    JsonObject engineOnly = new JsonObject().put("connection", "duckengine");
    String refusal = refused(engineOnly.copy().put("sql", "SELECT * FROM '/etc/passwd'"));
    // with external access off, a file name is only a table name, and there is no such table
    assertTrue(
        refusal.contains("does not exist") || refusal.toLowerCase().contains("disabled"), refusal);
    // a statement that is not a read by its first keyword never reaches it (GuardEffectsTest
    // shows the engine's own read-only transaction holding a write behind WITH)
    String write = refused(engineOnly.copy().put("sql", "CREATE TABLE t (x INT)"));
    assertTrue(write.contains("CREATE is not a read"), write);
    assertEquals(
        2,
        ok(engineOnly.copy().put("sql", "SELECT 1 + 1"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
  }
}
