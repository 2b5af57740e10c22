package dev.sonde.timeseries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Tag tables on the generated demo DuckDB, through MCP: detection, tags, profiles. */
class TagTablesToolsTest {
  static ToolCalls tools;

  @BeforeAll
  static void connect() {
    tools = ToolCalls.over(DatabaseSonde.get().port());
  }

  @Test
  void theDemoTagTablesAreListedAsTagAndTheRetailTablesAreNot() {
    Map<String, String> kinds =
        tools.ok("list_tables", new JsonObject()).getJsonArray("tables").stream()
            .map(JsonObject.class::cast)
            .collect(Collectors.toMap(t -> t.getString("name"), t -> t.getString("kind")));
    for (String tag : List.of("EXAMPLE", "GOLD", "VIBRATION", "DRIVING")) {
      assertEquals("TAG", kinds.get("demo.main." + tag), tag);
    }
    for (String plain : List.of("orders", "order_items", "products", "stores", "inventory")) {
      assertEquals("TABLE", kinds.get("demo.main." + plain), plain);
    }
  }

  @Test
  void tagsAreListedSorted() {
    JsonObject gold = tools.ok("list_table_tags", new JsonObject().put("table_name", "gold"));
    assertEquals(
        new JsonArray(List.of("close", "high", "low", "open", "volume")),
        gold.getJsonArray("tags"));
    assertEquals("NAME", gold.getString("tag_column"));
    String refused = tools.refused("list_table_tags", new JsonObject().put("table_name", "orders"));
    assertTrue(refused.contains("not a tag table") && refused.contains("EXAMPLE"), refused);
  }

  @Test
  void aProfileGivesRolesPerTagStatisticsAndTheTimeRangeInTheUsersZone() {
    JsonObject d =
        tools.ok(
            "describe_table",
            new JsonObject()
                .put("table_name", "GOLD")
                .put("profile", true)
                .put("timezone", "Asia/Seoul"));
    assertEquals("TAG", d.getString("kind"));
    JsonObject profile = d.getJsonObject("profile");
    assertEquals(
        List.of("NAME=PRIMARY KEY", "TIME=BASETIME", "VALUE=SUMMARIZED"),
        profile.getJsonArray("roles").stream()
            .map(JsonObject.class::cast)
            .map(r -> r.getString("column") + "=" + r.getString("role"))
            .toList());
    JsonObject volume =
        profile.getJsonArray("tags").stream()
            .map(JsonObject.class::cast)
            .filter(t -> t.getString("name").equals("volume"))
            .findFirst()
            .orElseThrow();
    assertEquals(1095, volume.getLong("count"));
    assertTrue(volume.getDouble("min") >= 100000 && volume.getDouble("max") <= 180000);
    JsonObject range = profile.getJsonObject("time_range");
    assertEquals(1094L * 86_400_000, range.getLong("end_ms") - range.getLong("start_ms"));
    assertTrue(range.getString("start").endsWith("+09:00"), range.getString("start"));
    assertEquals("Asia/Seoul", range.getString("timezone"));
  }

  @Test
  void aProfileOfAPlainTableSaysSo() {
    JsonObject d =
        tools.ok(
            "describe_table", new JsonObject().put("table_name", "orders").put("profile", true));
    assertTrue(d.getString("profile_note").contains("plain table"));
  }
}
