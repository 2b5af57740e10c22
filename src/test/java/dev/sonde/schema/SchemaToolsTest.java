package dev.sonde.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The schema tools through MCP on the generated demo DuckDB, on Chinook in SQLite (from ../shared)
 * and on an H2 database holding the same table in two schemas.
 */
class SchemaToolsTest {
  static JsonObject call(String tool, JsonObject args) {
    return DatabaseSonde.call(tool, args);
  }

  static JsonObject ok(String tool, JsonObject args) {
    JsonObject result = call(tool, args);
    assertFalse(result.getBoolean("isError", false), result.encode());
    return result.getJsonObject("structuredContent");
  }

  static String error(String tool, JsonObject args) {
    JsonObject result = call(tool, args);
    assertTrue(result.getBoolean("isError", false), result.encode());
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  @Test
  void theDemoDatabaseIsTheDefaultConnection() {
    JsonObject tables = ok("list_tables", new JsonObject());
    List<String> names =
        tables.getJsonArray("tables").stream()
            .map(t -> ((JsonObject) t).getString("name"))
            .toList();
    for (String table :
        List.of(
            "categories",
            "products",
            "stores",
            "customers",
            "orders",
            "order_items",
            "inventory",
            "EXAMPLE",
            "GOLD",
            "VIBRATION",
            "DRIVING")) {
      assertTrue(
          names.stream().anyMatch(n -> n.endsWith(".main." + table)), table + " in " + names);
    }
    assertEquals(names.size(), tables.getInteger("count"));
    assertEquals(names.stream().sorted().toList(), names);
  }

  @Test
  void filterTableNamesIgnoresCase() {
    JsonArray names =
        ok("filter_table_names", new JsonObject().put("substring", "ORDER"))
            .getJsonArray("table_names");
    assertEquals(2, names.size(), names.encode());
    assertTrue(
        names.getString(0).endsWith("main.order_items")
            && names.getString(1).endsWith("main.orders"));
    assertEquals(
        names.size(),
        ok("all_table_names", new JsonObject()).getJsonArray("table_names").stream()
            .filter(n -> n.toString().toLowerCase().contains("order"))
            .count());
  }

  @Test
  void describeTableGivesColumnsKeysIndexesAndComment() {
    JsonObject orders = ok("describe_table", new JsonObject().put("table_name", "ORDERS"));
    List<String> columns =
        orders.getJsonArray("columns").stream()
            .map(c -> ((JsonObject) c).getString("name"))
            .toList();
    assertEquals(
        List.of("order_id", "customer_id", "store_id", "ordered_at", "channel", "status"), columns);
    assertEquals(new JsonArray().add("order_id"), orders.getJsonArray("primary_key"));
    assertTrue(orders.getJsonArray("columns").getJsonObject(0).getBoolean("primary_key"));
    assertFalse(orders.getJsonArray("columns").getJsonObject(1).getBoolean("nullable"));
    assertEquals("TABLE", orders.getString("kind"));
    assertTrue(orders.getString("comment").contains("24 months"));
    List<String> references =
        orders.getJsonArray("foreign_keys").stream()
            .map(f -> ((JsonObject) f).getString("references"))
            .sorted()
            .toList();
    assertTrue(
        references.get(0).endsWith("main.customers") && references.get(1).endsWith("main.stores"),
        references.toString());
    JsonArray indexes =
        ok("list_indexes", new JsonObject().put("table_name", "main.orders"))
            .getJsonArray("indexes");
    assertTrue(
        indexes.stream()
            .anyMatch(
                i ->
                    "orders_ordered_at".equals(((JsonObject) i).getString("name"))
                        && "ordered_at"
                            .equals(
                                ((JsonObject) i)
                                    .getJsonArray("columns")
                                    .getJsonObject(0)
                                    .getString("name"))),
        indexes.encode());
    JsonObject items = ok("describe_table", new JsonObject().put("table_name", "order_items"));
    assertEquals(
        new JsonArray().add("order_id").add("line_no"),
        items.getJsonArray("primary_key"),
        "key order, not column order");
    JsonObject definitions =
        ok("schema_definitions", new JsonObject().put("table_name", "order_items"));
    assertEquals(items.getJsonArray("columns"), definitions.getJsonArray("columns"));
  }

  @Test
  void unknownTablesComeWithCloseMatchesAndConnectionsWithTheirNames() {
    String unknown = error("describe_table", new JsonObject().put("table_name", "order"));
    assertTrue(
        unknown.contains("unknown table 'order'") && unknown.contains("main.orders"), unknown);
    String noConnection = error("list_tables", new JsonObject().put("connection", "warehouse"));
    assertTrue(
        noConnection.contains("unknown connection 'warehouse'")
            && noConnection.contains("chinook, demo"),
        noConnection);
    assertTrue(
        error("describe_table", new JsonObject().put("table_name", "a.b.c.d"))
            .contains("schema.table"));
  }

  @Test
  void tableRowCountsByNameDefaultAndLimits() {
    JsonArray counts =
        ok(
                "table_row_counts",
                new JsonObject().put("table_names", new JsonArray().add("orders").add("nope")))
            .getJsonArray("counts");
    assertEquals(120000L, counts.getJsonObject(0).getLong("row_count"));
    assertNull(counts.getJsonObject(1).getValue("row_count"));
    assertTrue(counts.getJsonObject(1).getString("error").contains("unknown table 'nope'"));
    JsonObject all = ok("table_row_counts", new JsonObject());
    assertEquals(false, all.getBoolean("truncated"));
    assertEquals(all.getInteger("total_tables"), all.getJsonArray("counts").size());
    assertEquals(
        new JsonArray(),
        ok("table_row_counts", new JsonObject().put("table_names", new JsonArray()))
            .getJsonArray("counts"));
    JsonArray many = new JsonArray();
    for (int i = 0; i < 51; i++) {
      many.add("t" + i);
    }
    String refused = error("table_row_counts", new JsonObject().put("table_names", many));
    assertTrue(refused.contains("(51 > 50) (rule: maxItems)"), refused);
  }

  @Test
  void chinookOnSqlite() {
    JsonObject args = new JsonObject().put("connection", "chinook");
    assertEquals(11, ok("list_tables", args).getInteger("count"));
    JsonObject track = ok("describe_table", args.copy().put("table_name", "track"));
    assertEquals("TrackId", track.getJsonArray("columns").getJsonObject(0).getString("name"));
    assertEquals(new JsonArray().add("TrackId"), track.getJsonArray("primary_key"));
    List<String> references =
        track.getJsonArray("foreign_keys").stream()
            .map(f -> ((JsonObject) f).getString("references"))
            .sorted()
            .toList();
    assertEquals(List.of("Album", "Genre", "MediaType"), references);
    JsonArray counts =
        ok(
                "table_row_counts",
                args.copy().put("table_names", new JsonArray().add("Track").add("Invoice")))
            .getJsonArray("counts");
    assertEquals(3503L, counts.getJsonObject(0).getLong("row_count"));
    assertEquals(412L, counts.getJsonObject(1).getLong("row_count"));
  }

  @Test
  void aNameHeldBySeveralSchemasMustBeQualified() {
    JsonObject args = new JsonObject().put("connection", "shop");
    String ambiguous = error("describe_table", args.copy().put("table_name", "items"));
    assertEquals(
        "ambiguous table name 'items'; qualify it with the schema: ARCHIVE.ITEMS, SALES.ITEMS",
        ambiguous);
    JsonObject sales = ok("describe_table", args.copy().put("table_name", "sales.items"));
    assertEquals(new JsonArray().add("ID"), sales.getJsonArray("primary_key"));
    assertTrue(
        ok("describe_table", args.copy().put("table_name", "notes"))
            .getString("table")
            .endsWith("PUBLIC.NOTES"));
  }

  @Test
  void healthCheckReportsEveryConnection() {
    JsonObject connections = ok("health_check", new JsonObject()).getJsonObject("connections");
    for (String name : List.of("demo", "chinook", "shop", "quick")) {
      assertTrue(
          connections.getJsonObject(name).getBoolean("ok"), name + ": " + connections.encode());
    }
    assertTrue(connections.getJsonObject("demo").getString("version").startsWith("DuckDB v1.5"));
    assertTrue(connections.getJsonObject("demo").getJsonObject("pool").getInteger("max") > 0);
  }
}
