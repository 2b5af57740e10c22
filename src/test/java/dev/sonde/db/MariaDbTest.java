package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The MySQL/MariaDB dialect on a real MariaDB: Debian's mariadbd (make test-deps installs it),
 * started here on a free port with a throwaway data directory.
 */
class MariaDbTest {
  static Process server;
  static Path dataDir;
  static InProcessSonde sonde;
  static HttpMcpClient client;
  static String url;

  @BeforeAll
  static void start() throws Exception {
    Path mariadbd = Path.of("/usr/sbin/mariadbd");
    if (!Files.isExecutable(mariadbd)) {
      throw new IllegalStateException(
          "mariadbd is missing: run make test-deps (apt-get install mariadb-server)");
    }
    dataDir = Files.createTempDirectory("sonde-mariadb-");
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Process install =
        new ProcessBuilder(
                "mariadb-install-db",
                "--user=root",
                "--datadir=" + dataDir,
                "--auth-root-authentication-method=normal",
                "--skip-test-db")
            .redirectErrorStream(true)
            .redirectOutput(dataDir.resolve("install.log").toFile())
            .start();
    assertTrue(
        install.waitFor(120, TimeUnit.SECONDS) && install.exitValue() == 0,
        Files.readString(dataDir.resolve("install.log")));
    server =
        new ProcessBuilder(
                mariadbd.toString(),
                "--no-defaults",
                "--user=root",
                "--datadir=" + dataDir,
                "--port=" + port,
                "--bind-address=127.0.0.1",
                "--socket=" + dataDir.resolve("sock"),
                "--skip-grant-tables",
                "--log-error=" + dataDir.resolve("error.log"))
            .redirectErrorStream(true)
            .redirectOutput(dataDir.resolve("server.log").toFile())
            .start();
    String url = "jdbc:mariadb://127.0.0.1:" + port + "/";
    long end = System.currentTimeMillis() + 60_000;
    Connection admin = null;
    while (admin == null) {
      try {
        admin = DriverManager.getConnection(url + "?user=root");
      } catch (java.sql.SQLException e) {
        assertTrue(
            System.currentTimeMillis() < end && server.isAlive(),
            "MariaDB did not start: " + e.getMessage());
        Thread.sleep(200);
      }
    }
    try (Connection c = admin;
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE shop");
      st.execute(
          "CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(50) NOT NULL) COMMENT 'people who buy'");
      st.execute(
          "CREATE TABLE shop.orders (id INT PRIMARY KEY, customer_id INT NOT NULL, total DECIMAL(10,2), "
              + "INDEX orders_customer (customer_id), FOREIGN KEY (customer_id) REFERENCES shop.customers (id))");
      st.execute("INSERT INTO shop.customers VALUES (1, 'Ana'), (2, 'Bo')");
      st.execute("INSERT INTO shop.orders VALUES (1, 1, 12.50), (2, 1, 7.25), (3, 2, 100.00)");
      // a table whose changes no rollback undoes
      st.execute("CREATE DATABASE ledgers");
      st.execute(
          "CREATE TABLE ledgers.ledger (id INT PRIMARY KEY, note VARCHAR(20)) ENGINE=MyISAM");
      st.execute("INSERT INTO ledgers.ledger VALUES (1, 'kept')");
    }
    MariaDbTest.url = url;
    sonde =
        new InProcessSonde(
            Map.ofEntries(
                Map.entry("databases.defaultConnection", "maria"),
                Map.entry("databases.connections.maria.type", "jdbc"),
                Map.entry("databases.connections.maria.url", url + "shop?user=root"),
                Map.entry("databases.connections.mariaengine.type", "jdbc"),
                Map.entry("databases.connections.mariaengine.url", url + "shop?user=root"),
                Map.entry("databases.connections.mariaengine.guard", "engine-only"),
                Map.entry("databases.connections.mariawrite.type", "jdbc"),
                Map.entry("databases.connections.mariawrite.url", url + "ledgers?user=root"),
                Map.entry("databases.connections.mariawrite.readOnly", "false"),
                Map.entry("databases.connections.mariawrite.write", "true"),
                Map.entry("databases.connections.mariamulti.type", "jdbc"),
                Map.entry(
                    "databases.connections.mariamulti.url",
                    url + "shop?user=root&allowMultiQueries=true")));
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
      sonde.close();
    }
    if (server != null) {
      server.destroy();
      server.waitFor(30, TimeUnit.SECONDS);
    }
  }

  static JsonObject ok(String tool, JsonObject args) {
    return new ToolCalls(client).ok(tool, args);
  }

  static String refused(String tool, JsonObject args) {
    return new ToolCalls(client).refused(tool, args);
  }

  @Test
  void schemaOnMariaDb() {
    assertEquals(
        new JsonArray().add("ledgers.ledger").add("shop.customers").add("shop.orders"),
        ok("all_table_names", new JsonObject()).getJsonArray("table_names"));
    JsonObject orders = ok("describe_table", new JsonObject().put("table_name", "orders"));
    assertEquals(new JsonArray().add("id"), orders.getJsonArray("primary_key"));
    assertEquals(
        "shop.customers",
        orders.getJsonArray("foreign_keys").getJsonObject(0).getString("references"));
    assertTrue(
        orders.getJsonArray("indexes").stream()
            .anyMatch(i -> "orders_customer".equals(((JsonObject) i).getString("name"))),
        orders.encode());
    assertEquals(
        "people who buy",
        ok("describe_table", new JsonObject().put("table_name", "customers")).getString("comment"));
    assertEquals(
        3L,
        ok("table_row_counts", new JsonObject().put("table_names", new JsonArray().add("orders")))
            .getJsonArray("counts")
            .getJsonObject(0)
            .getLong("row_count"));
  }

  @Test
  void queriesAndTheGuardOnMariaDb() {
    JsonArray row =
        ok(
                "execute_query",
                new JsonObject().put("sql", "SELECT sum(total) AS t, count(*) AS n FROM orders"))
            .getJsonArray("rows")
            .getJsonArray(0);
    assertEquals("119.75", row.getValue(0));
    assertEquals(3, row.getInteger(1));
    assertTrue(
        refused("execute_query", new JsonObject().put("sql", "SELECT SLEEP(5)"))
            .contains("sleep() is not allowed"));
    assertTrue(
        refused("execute_query", new JsonObject().put("sql", "SELECT 1 --1; DELETE FROM orders"))
            .contains("only one statement"));
    assertTrue(
        refused(
                "execute_query",
                new JsonObject().put("sql", "SELECT 1 /*! ; DELETE FROM orders */"))
            .contains("executable comments"));
    assertTrue(
        refused("execute_query", new JsonObject().put("sql", "SELECT LOAD_FILE('/etc/passwd')"))
            .contains("load_file() is not allowed"));
    // engine-only still refuses a statement that is not a read by its first keyword (MariaDB has
    // no write behind a read's keyword to leave to its READ ONLY transaction)
    String engine =
        refused(
            "execute_query",
            new JsonObject().put("sql", "DELETE FROM orders").put("connection", "mariaengine"));
    assertTrue(engine.contains("DELETE is not a read"), engine);
    assertEquals(
        3,
        ok("execute_query", new JsonObject().put("sql", "SELECT count(*) FROM orders"))
            .getJsonArray("rows")
            .getJsonArray(0)
            .getInteger(0));
    assertTrue(
        ok("health_check", new JsonObject())
            .getJsonObject("connections")
            .getJsonObject("maria")
            .getString("version")
            .contains("MariaDB"));
  }

  static long canary() throws Exception {
    try (Connection c = DriverManager.getConnection(url + "walls?user=root");
        Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM canary")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * Below the guard: the driver of Sonde's pool does not run a second statement from one text, and
   * a connection that would (allowMultiQueries) is not opened.
   */
  @Test
  void oneTextIsNeverTwoStatements() throws Exception {
    // a database of its own, dropped afterwards: the schema test lists every database
    try (Connection c = DriverManager.getConnection(url + "?user=root");
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE walls");
      st.execute("CREATE TABLE walls.canary (v INT)");
    }
    try {
      twoStatementsNeverRun();
    } finally {
      try (Connection c = DriverManager.getConnection(url + "?user=root");
          Statement st = c.createStatement()) {
        st.execute("DROP DATABASE walls");
      }
    }
  }

  private void twoStatementsNeverRun() throws Exception {
    MySqlDialect dialect = new MySqlDialect(30);
    try (PooledSource source =
            new PooledSource(
                url + "walls?user=root",
                "",
                "",
                1,
                dialect.connectionProperties(),
                dialect.wall());
        Connection c = source.borrow()) {
      dialect.verify(c);
      for (String two :
          java.util.List.of(
              "SELECT 1; INSERT INTO canary VALUES (666)",
              "SELECT 1 --x\r; INSERT INTO canary VALUES (666)")) {
        try (Statement st = c.createStatement()) {
          org.junit.jupiter.api.Assertions.assertThrows(
              java.sql.SQLException.class, () -> st.execute(two));
        }
        try (java.sql.PreparedStatement ps = c.prepareStatement(two)) {
          org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class, ps::execute);
        } catch (java.sql.SQLException refusedAtPrepare) {
          // the server refused it while preparing: nothing ran either
        }
      }
    }
    assertEquals(0, canary());
    JsonObject multi =
        ok("health_check", new JsonObject())
            .getJsonObject("connections")
            .getJsonObject("mariamulti");
    assertEquals(false, multi.getBoolean("ok"), multi.encode());
    assertTrue(multi.getString("error").contains("allowMultiQueries"), multi.encode());
    try (Connection c =
        DriverManager.getConnection(url + "shop?user=root&allowMultiQueries=true")) {
      org.junit.jupiter.api.Assertions.assertThrows(
          java.sql.SQLException.class, () -> new MySqlDialect(30).verify(c));
    }
    assertEquals(0, canary(), "the verification runs only SELECTs");
  }

  @Test
  void askingToConfirmAWriteChangesNothingEvenInATableNoRollbackUndoes() throws Exception {
    HttpMcpClient modern = HttpMcpClient.modern(sonde.port());
    JsonObject params =
        McpClient.modern(
            new JsonObject()
                .put("name", "execute_write")
                .put(
                    "arguments",
                    new JsonObject()
                        .put("connection", "mariawrite")
                        .put("sql", "UPDATE ledger SET note = 'changed' WHERE id = 1")));
    params
        .getJsonObject("_meta")
        .put(
            "io.modelcontextprotocol/clientCapabilities",
            new JsonObject().put("elicitation", new JsonObject()));
    JsonObject asked = modern.request(1, "tools/call", params).getJsonObject("result");
    assertEquals("input_required", asked.getString("resultType"), asked.encode());
    try (Connection c = DriverManager.getConnection(url + "ledgers?user=root");
        Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT note FROM ledger WHERE id = 1")) {
      rs.next();
      assertEquals("kept", rs.getString(1), "asking must not have run the write");
    }
    assertTrue(
        asked.encode().contains("cannot count its rows without risking the change"),
        asked.encode());
  }
}
