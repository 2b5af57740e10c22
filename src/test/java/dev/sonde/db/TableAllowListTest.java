package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.Closing;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 20's allow-lists on engines without roles: an account reads DuckDB (and SQLite) through a
 * list of tables, enforced on the guard's parse tree before the read runs, refused in the words of
 * an engine's permission error. The attacks use what each engine's binder really does: names it
 * resolves through schemas, catalogs and its own catalogue views, WITH queries that hide a table,
 * subqueries in every clause, DuckDB's FROM-first, SUMMARIZE, PIVOT and SHOW forms, table functions
 * and macros whose bodies read other tables. A refusal is not enough: the secret must never come
 * back in any answer.
 */
class TableAllowListTest {
  static final String SECRET = "secret-mail@example.org";
  static InProcessSonde sonde;
  static ToolCalls tools;
  static final List<String> answers = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    Path folder = Files.createTempDirectory("sonde-allow-");
    Path duck = folder.resolve("shop.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + duck);
        Statement st = c.createStatement()) {
      st.execute(
          """
          CREATE TABLE products (id INTEGER, name VARCHAR, price DECIMAL(8, 2));
          INSERT INTO products VALUES (1, 'kettle', 20), (2, 'lamp', 35);
          CREATE TABLE customers (id INTEGER, email VARCHAR);
          INSERT INTO customers VALUES (1, '%s');
          CREATE SCHEMA sales;
          CREATE TABLE sales.orders (id INTEGER, product_id INTEGER, qty INTEGER);
          INSERT INTO sales.orders VALUES (1, 1, 3), (2, 2, 1);
          CREATE TABLE sales.payroll (name VARCHAR, salary INTEGER);
          INSERT INTO sales.payroll VALUES ('%s', 1);
          CREATE VIEW customer_mails AS SELECT email FROM customers;
          CREATE VIEW vip AS SELECT * FROM customers WHERE email = '%s';
          CREATE MACRO leak() AS (SELECT max(email) FROM customers);
          CREATE MACRO leak_rows() AS TABLE SELECT email FROM customers;
          CREATE TABLE readings (sensor VARCHAR NOT NULL, read_at TIMESTAMP NOT NULL, reading DOUBLE);
          INSERT INTO readings SELECT CASE WHEN i %% 2 = 0 THEN 'flow' ELSE 'level' END,
            TIMESTAMP '2024-10-28 00:00:00' + i * INTERVAL 1 MINUTE, i FROM range(600) t(i);
          CREATE TABLE secret_readings (sensor VARCHAR NOT NULL, read_at TIMESTAMP NOT NULL,
            reading DOUBLE);
          INSERT INTO secret_readings VALUES ('%s', TIMESTAMP '2024-10-28 00:00:00', 1);
          CREATE TYPE mood AS ENUM ('%s', 'calm');
          """
              .formatted(SECRET, SECRET, SECRET, SECRET, SECRET));
    }
    Path sqlite = folder.resolve("chinook.sqlite");
    Files.copy(
        Path.of("../shared/datasets/chinook/Chinook_Sqlite.sqlite"),
        sqlite,
        StandardCopyOption.REPLACE_EXISTING);
    sonde =
        new InProcessSonde(
            Map.ofEntries(
                Map.entry("data.dir", folder.resolve("data").toString()),
                Map.entry("databases.defaultConnection", "shop"),
                Map.entry("databases.connections.shop.type", "duckdb"),
                Map.entry("databases.connections.shop.path", duck.toString()),
                Map.entry(
                    "databases.connections.shop.accounts.*.tables",
                    "products,sales.orders,main.readings"),
                Map.entry("databases.connections.music.type", "jdbc"),
                Map.entry("databases.connections.music.url", "jdbc:sqlite:" + sqlite),
                Map.entry("databases.connections.music.accounts.local.tables", "Album,Artist")));
    tools = ToolCalls.over(sonde.port());
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.inOrder(sonde);
  }

  static JsonObject sql(String connection, String sql) {
    return new JsonObject().put("connection", connection).put("sql", sql);
  }

  static JsonObject kept(JsonObject answer) {
    synchronized (answers) {
      answers.add(answer.encode());
    }
    return answer;
  }

  static String refused(String tool, JsonObject args) {
    JsonObject result = kept(tools.call(tool, args));
    assertTrue(result.getBoolean("isError", false), "expected a refusal: " + result.encode());
    return result.getJsonArray("content").getJsonObject(0).getString("text");
  }

  static List<String> listed(String connection) {
    List<String> names = new ArrayList<>();
    for (Object t :
        kept(tools.ok("list_tables", new JsonObject().put("connection", connection)))
            .getJsonArray("tables")) {
      String qualified = ((JsonObject) t).getString("name");
      names.add(qualified.substring(qualified.indexOf('.') + 1));
    }
    return names;
  }

  @Test
  void theAccountListsAndReadsOnlyItsTables() {
    assertEquals(List.of("main.products", "main.readings", "sales.orders"), listed("shop"));
    assertEquals(
        "2",
        String.valueOf(
            kept(tools.ok(
                    "execute_query",
                    sql(
                        "shop",
                        "WITH o AS (SELECT * FROM sales.orders) SELECT count(*) FROM o"
                            + " JOIN products p ON p.id = o.product_id")))
                .getJsonArray("rows")
                .getJsonArray(0)
                .getValue(0)));
    assertEquals(
        "3",
        String.valueOf(
            kept(tools.ok("execute_query", sql("shop", "FROM range(3) SELECT count(*)")))
                .getJsonArray("rows")
                .getJsonArray(0)
                .getValue(0)));
    assertTrue(
        refused("describe_table", new JsonObject().put("table_name", "customers"))
            .contains("customers"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT * FROM customers",
        "SELECT * FROM main.customers",
        "SELECT * FROM shop.main.customers",
        "SELECT * FROM \"CUSTOMERS\"",
        "FROM customers",
        "SELECT email FROM products, customers",
        "SELECT * FROM products WHERE EXISTS (SELECT 1 FROM customers WHERE email LIKE 's%')",
        "SELECT (SELECT max(email) FROM customers) FROM products",
        "SELECT * FROM products, LATERAL (SELECT email FROM customers) c",
        "SELECT name FROM products UNION ALL SELECT email FROM customers",
        "WITH x AS (SELECT email FROM customers) SELECT * FROM x",
        "WITH customers AS (SELECT 1 AS email) SELECT * FROM customers",
        "SELECT * FROM products, (WITH customers AS (SELECT 1) SELECT * FROM customers) t,"
            + " customers",
        "WITH RECURSIVE r AS (SELECT email FROM customers UNION SELECT email FROM r) FROM r",
        "SELECT * FROM customer_mails",
        "SELECT * FROM sales.payroll",
        "SELECT * FROM unnest((SELECT list(email) FROM customers))",
        "SELECT leak()",
        "FROM leak_rows()",
        "SUMMARIZE customers",
        "DESCRIBE customers",
        "SHOW TABLES",
        "SHOW ALL TABLES",
        "PIVOT customers ON id IN (1) USING max(email)",
        "SELECT * FROM duckdb_tables()",
        "SELECT * FROM duckdb_columns()",
        "SELECT * FROM information_schema.tables",
        "SELECT * FROM pg_catalog.pg_class",
        "SELECT * FROM pg_class",
        "SELECT * FROM pragma_table_info('customers')",
        "SELECT * FROM query_table('customers')",
        "SELECT * FROM query('SELECT * FROM customers')",
        "SELECT * FROM secret_readings",
        "SELECT * FROM \"main.customers\"",
        // a WITH name out of its scope, where the name is the engine's catalogue
        "SELECT sql FROM (WITH duckdb_views AS (SELECT 1) SELECT 1) t, duckdb_views",
        "SELECT table_name, column_name FROM (WITH duckdb_columns AS (SELECT 1) SELECT 1) t,"
            + " duckdb_columns",
        "SELECT * FROM (WITH customers AS (SELECT 1) SELECT 1) t, customers",
        // a type's definition is the catalogue's: its labels come back as values and in errors
        "SELECT enum_range(NULL::mood)",
        "SELECT enum_first(NULL::mood), enum_last(NULL::MOOD)",
        "SELECT enum_range_boundary(NULL, NULL::main.mood)",
        "SELECT typeof(NULL::\"Mood\")",
        "SELECT CAST(1 AS mood)",
        "SELECT * FROM duckdb_types()",
        // a built-in macro whose body reads the catalogue
        "SELECT pg_get_viewdef(i) FROM range(0, 2000) r(i) WHERE pg_get_viewdef(i) LIKE '%secret%'"
      })
  void everyWayToNameAnotherTableIsRefused(String attack) {
    String refusal = refused("execute_query", sql("shop", attack));
    assertTrue(
        refusal.contains("permission denied")
            || refusal.contains("is not allowed")
            || refusal.startsWith("rejected:"),
        attack + " → " + refusal);
    assertFalse(refusal.contains(SECRET), refusal);
  }

  @Test
  void chartsAndPlansFollowTheList() {
    JsonObject spec =
        new JsonObject()
            .put("tags", new JsonArray().add("flow"))
            .put("kind", "tags")
            .put("rollup", "hour")
            .put("metrics", new JsonArray().add(new JsonObject().put("agg", "avg")))
            .put(
                "timeRange",
                new JsonObject()
                    .put("start", "2024-10-28T00:00:00Z")
                    .put("end", "2024-10-28T10:00:00Z"));
    JsonObject chart =
        kept(
            tools.ok(
                "compile_chart_from_spec",
                new JsonObject()
                    .put("spec", spec.copy().put("table", "readings"))
                    .put("timezone", "UTC")));
    assertTrue(chart.getJsonObject("chart") != null, chart.encode());
    String refusal =
        refused(
            "compile_chart_from_spec",
            new JsonObject()
                .put("spec", spec.copy().put("table", "secret_readings"))
                .put("timezone", "UTC"));
    assertTrue(refusal.contains("secret_readings"), refusal);
    refusal = refused("explain_query", new JsonObject().put("sql", "SELECT * FROM customers"));
    assertTrue(refusal.contains("permission denied for table customers"), refusal);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT * FROM Customer",
        "SELECT * FROM main.Customer",
        "SELECT * FROM \"Employee\"",
        "SELECT * FROM sqlite_master",
        "SELECT * FROM sqlite_schema",
        "SELECT * FROM pragma_table_info('Customer')",
        "SELECT * FROM Album WHERE AlbumId IN (SELECT CustomerId FROM Customer)",
        "WITH Customer AS (SELECT 1) SELECT * FROM Customer",
        "WITH c AS (SELECT Email FROM Customer) SELECT * FROM c",
        "SELECT Title FROM Album UNION SELECT Email FROM Customer",
        // where JSqlParser's tree shows no table: an aggregate's ORDER BY, a table after IN
        "WITH RECURSIVE p(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM p WHERE i < 40),"
            + " c(k) AS (SELECT 32 UNION ALL SELECT k + 1 FROM c WHERE k < 126)"
            + " SELECT substr(group_concat(char(k), '' ORDER BY (SELECT CASE WHEN"
            + " unicode(substr(Email, i, 1)) = k THEN i ELSE 1000 END FROM Customer"
            + " WHERE CustomerId = 1)), 1, 40) FROM p, c",
        "SELECT (1, 'Rock') IN Genre AS hit, (1, 'Jazz') IN main.Genre AS miss",
        // a WITH name out of its scope; virtual tables
        "SELECT sql FROM (WITH sqlite_master AS (SELECT 1) SELECT 1), sqlite_master",
        "SELECT name FROM (WITH pragma_table_info AS (SELECT 1) SELECT 1), pragma_table_info"
            + " WHERE arg = 'Employee'",
        "SELECT * FROM dbstat",
        "SELECT * FROM pragma_compile_options"
      })
  void sqliteReadsOnlyItsListToo(String attack) {
    String refusal = refused("execute_query", sql("music", attack));
    assertTrue(
        refusal.contains("permission denied")
            || refusal.contains("is not allowed")
            || refusal.startsWith("rejected:"),
        attack + " → " + refusal);
    assertFalse(refusal.contains("@"), refusal);
  }

  @Test
  void sqliteListsAndJoinsItsTables() {
    assertEquals(
        List.of("Album", "Artist"),
        listed("music").stream().map(n -> n.substring(n.lastIndexOf('.') + 1)).sorted().toList());
    JsonObject joined =
        kept(
            tools.ok(
                "execute_query",
                sql(
                    "music",
                    "SELECT count(*) FROM Album a JOIN Artist r ON r.ArtistId = a.ArtistId")));
    assertEquals("347", String.valueOf(joined.getJsonArray("rows").getJsonArray(0).getValue(0)));
  }

  @Test
  void theSecretNeverCameBack() {
    kept(tools.call("execute_query", sql("shop", "SELECT * FROM customers")));
    synchronized (answers) {
      for (String answer : answers) {
        assertFalse(answer.contains(SECRET), answer);
      }
    }
  }
}
