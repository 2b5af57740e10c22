package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.Closing;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.TestPostgres;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * chat_bi on PostgreSQL through the reactive client: the demo's stores, categories, products and
 * inventory copied from DuckDB, the retail domain pointed at them, and the same questions giving
 * the same rows as on DuckDB; the guard, the AST check and EXPLAIN run against PostgreSQL.
 */
public class ChatBiOnPostgresTest {
  public static final Map<String, String> TABLES =
      Map.of(
          "categories",
              "category_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, name_zh VARCHAR NOT NULL",
          "products",
              "product_id INTEGER PRIMARY KEY, category_id INTEGER NOT NULL, name VARCHAR NOT NULL,"
                  + " name_zh VARCHAR NOT NULL, unit_price DECIMAL(10, 2) NOT NULL,"
                  + " unit_cost DECIMAL(10, 2) NOT NULL, launched_on DATE NOT NULL",
          "stores",
              "store_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, city VARCHAR NOT NULL,"
                  + " city_zh VARCHAR NOT NULL, region VARCHAR NOT NULL, opened_on DATE NOT NULL",
          "inventory",
              "store_id INTEGER NOT NULL, product_id INTEGER NOT NULL, quantity INTEGER NOT NULL,"
                  + " updated_at TIMESTAMP NOT NULL, PRIMARY KEY (store_id, product_id)");

  static TestPostgres postgres;
  static InProcessSonde sonde;
  static ToolCalls tools;

  @BeforeAll
  static void start() throws Exception {
    Path duck = TestPostgres.demoDuckDb();
    postgres = TestPostgres.start();
    String pg = postgres.createDatabaseFrom(duck, "shop", TABLES);
    Path ontology = Files.createTempDirectory("sonde-ontology-");
    Files.writeString(
        ontology.resolve("retail.yaml"),
        Files.readString(Path.of("conf/ontology/retail.yaml"))
            .replace("connection: demo", "connection: pgshop"));
    sonde =
        new InProcessSonde(
            Map.of(
                "databases.connections.duck.type",
                "duckdb",
                "databases.connections.duck.path",
                duck.toString(),
                "databases.connections.pgshop.type",
                "postgres",
                "databases.connections.pgshop.url",
                pg,
                "chatbi.ontology",
                ontology.toString()));
    tools = ToolCalls.over(sonde.port());
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.inOrder(sonde, postgres);
  }

  static Set<String> rows(String sql) {
    JsonObject result =
        tools.ok("execute_query", new JsonObject().put("connection", "duck").put("sql", sql));
    Set<String> out = new HashSet<>();
    for (Object row : result.getJsonArray("rows")) {
      out.add(((JsonArray) row).encode());
    }
    return out;
  }

  static Set<String> rows(JsonObject envelope) {
    Set<String> out = new HashSet<>();
    JsonObject data = envelope.getJsonObject("bizresult").getJsonObject("data");
    for (Object row : data.getJsonArray("rows")) {
      JsonArray values = new JsonArray();
      data.getJsonArray("columns")
          .forEach(c -> values.add(((JsonObject) row).getValue((String) c)));
      out.add(values.encode());
    }
    return out;
  }

  @Test
  void theStoresAboveAverageStockAreTheSameOnPostgresAsHandWrittenSqlOnDuckDb() {
    Set<String> expected =
        rows(
            "SELECT s.name, s.city, SUM(i.quantity) FROM inventory i JOIN stores s ON i.store_id = s.store_id"
                + " GROUP BY s.store_id, s.name, s.city HAVING SUM(i.quantity) > (SELECT AVG(t) FROM"
                + " (SELECT SUM(quantity) AS t FROM inventory GROUP BY store_id) x)");
    assertFalse(expected.isEmpty());
    for (String question :
        List.of(
            "Which stores hold more stock than average, with their city?",
            "재고가 평균보다 많은 매장과 도시는?")) {
      JsonObject envelope = tools.ok("chat_bi", new JsonObject().put("nlq", question));
      assertTrue(envelope.getBoolean("success"), envelope.encode());
      assertEquals(normalised(expected), normalised(rows(envelope)), question);
      JsonObject validate =
          envelope.getJsonObject("bizresult").getJsonArray("trace").stream()
              .map(JsonObject.class::cast)
              .filter(s -> s.getString("step").equals("validate"))
              .findFirst()
              .orElseThrow();
      assertTrue(
          validate.getJsonObject("data").getString("explain").contains("Aggregate"),
          "PostgreSQL's plan: " + validate.encode());
    }
  }

  @Test
  void theAveragePricePerCategoryAndARefusedNameOnPostgres() {
    Set<String> expected =
        rows(
            "SELECT c.name, AVG(p.unit_price) FROM products p JOIN categories c ON p.category_id = c.category_id"
                + " GROUP BY c.category_id, c.name");
    JsonObject envelope = tools.ok("chat_bi", new JsonObject().put("nlq", "每个类别的产品平均价格是多少？"));
    assertTrue(envelope.getBoolean("success"), envelope.encode());
    // DuckDB and PostgreSQL print sums and averages to different types and scales: compare numbers
    assertEquals(normalised(expected), normalised(rows(envelope)));
    JsonObject paris =
        tools.ok("chat_bi", new JsonObject().put("nlq", "How much stock is held in Paris?"));
    assertFalse(paris.getBoolean("success"));
  }

  @Test
  void aSuperlativeKeepsItsTiesThroughAWindowOnPostgres() {
    Set<String> expected =
        rows(
            "SELECT s.name, SUM(i.quantity) FROM inventory i JOIN stores s ON i.store_id = s.store_id"
                + " GROUP BY s.store_id, s.name HAVING SUM(i.quantity) = (SELECT MAX(t) FROM"
                + " (SELECT SUM(quantity) AS t FROM inventory GROUP BY store_id) x)");
    JsonObject envelope =
        tools.ok("chat_bi", new JsonObject().put("nlq", "Which store holds the most stock?"));
    assertTrue(envelope.getBoolean("success"), envelope.encode());
    assertTrue(
        envelope.getJsonObject("bizresult").getString("sql").contains("RANK() OVER"),
        envelope.encode());
    assertEquals(normalised(expected), normalised(rows(envelope)));
  }

  private static Set<String> normalised(Set<String> rows) {
    Set<String> out = new HashSet<>();
    for (String row : rows) {
      JsonArray values = new JsonArray(row);
      JsonArray fixed = new JsonArray();
      for (Object v : values) {
        boolean numeric =
            v instanceof Number || v instanceof String t && t.matches("-?\\d+(\\.\\d+)?");
        fixed.add(
            numeric
                ? String.format(
                    java.util.Locale.ROOT, "%.4f", Double.parseDouble(String.valueOf(v)))
                : v);
      }
      out.add(fixed.encode());
    }
    return out;
  }
}
