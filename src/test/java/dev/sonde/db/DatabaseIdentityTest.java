package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.auth.ApiTokens;
import dev.sonde.chatbi.ChatBiOnPostgresTest;
import dev.sonde.support.Closing;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.TestPostgres;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's database identity on a real PostgreSQL with two account roles and different grants:
 * Sonde logs in as a role that owns nothing and inherits nothing, and each signed-in account's
 * reads set its own role inside their read-only transaction, so the database's grants decide what
 * each sees, through list_tables, execute_query (reactive and JDBC), describe_table, a chart and
 * chat_bi. An account with a user of its own logs in as it; one with no entry may not use the
 * connection. Escapes are tried the way the engine allows them (set_config, SET ROLE, a CTE), and
 * judged by what the database reports afterwards, not by the answers.
 */
class DatabaseIdentityTest {
  static final String BOB_SECRET = "bob-secret-7f3a";
  static TestPostgres postgres;
  static String adminUrl;
  static Path dataDir;
  static InProcessSonde sonde;
  static ToolCalls alice;
  static ToolCalls bob;
  static ToolCalls carol;
  static ToolCalls dave;
  static ToolCalls erin;
  static final List<String> answers = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    Path duck = TestPostgres.demoDuckDb();
    postgres = TestPostgres.start();
    adminUrl = postgres.createDatabaseFrom(duck, "ident", ChatBiOnPostgresTest.TABLES);
    try (Connection admin = DriverManager.getConnection(adminUrl);
        Statement st = admin.createStatement()) {
      st.execute(
          """
          DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ident_login') THEN
              CREATE ROLE ident_login LOGIN NOINHERIT; END IF;
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'alice_role') THEN
              CREATE ROLE alice_role NOLOGIN; END IF;
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bob_role') THEN
              CREATE ROLE bob_role NOLOGIN; END IF;
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'dave_user') THEN
              CREATE ROLE dave_user LOGIN; END IF;
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'erin_role') THEN
              CREATE ROLE erin_role NOLOGIN; END IF;
          END $$;
          GRANT alice_role, bob_role, erin_role TO ident_login;
          CREATE TABLE shared_sales (region text, amount int);
          INSERT INTO shared_sales VALUES ('north', 10), ('south', 20);
          CREATE TABLE bob_only (note text);
          INSERT INTO bob_only VALUES ('%s');
          CREATE TABLE alice_readings (sensor text NOT NULL, read_at timestamp NOT NULL,
                                       reading double precision);
          INSERT INTO alice_readings
            SELECT CASE WHEN i %% 2 = 0 THEN 'flow' ELSE 'level' END,
                   TIMESTAMP '2024-10-28 00:00:00' + i * INTERVAL '1 minute', i
              FROM generate_series(0, 599) i;
          GRANT SELECT ON shared_sales TO alice_role, bob_role, dave_user;
          GRANT SELECT ON bob_only TO bob_role;
          GRANT SELECT ON alice_readings, categories, products, stores, inventory TO alice_role;
          CREATE OR REPLACE FUNCTION peek(shared_sales) RETURNS text LANGUAGE sql STABLE
            SECURITY DEFINER AS $f$ SELECT note FROM bob_only LIMIT 1 $f$;
          CREATE OR REPLACE FUNCTION peek_as_bob() RETURNS text LANGUAGE sql STABLE
            SET role = 'bob_role' AS $f$ SELECT note FROM bob_only LIMIT 1 $f$;
          CREATE OR REPLACE FUNCTION peek_as_login() RETURNS text LANGUAGE sql STABLE
            SET role = 'ident_login' AS $f$ SELECT current_user::text $f$;
          CREATE OR REPLACE FUNCTION tally_step(text, int) RETURNS text LANGUAGE sql STABLE
            SECURITY DEFINER AS $f$ SELECT note FROM bob_only LIMIT 1 $f$;
          CREATE OR REPLACE AGGREGATE tally(int) (SFUNC = tally_step, STYPE = text);
          CREATE OR REPLACE FUNCTION peek_op(int, int) RETURNS text LANGUAGE sql STABLE
            SECURITY DEFINER AS $f$ SELECT note FROM bob_only LIMIT 1 $f$;
          CREATE OPERATOR ### (LEFTARG = int, RIGHTARG = int, FUNCTION = peek_op);
          CREATE OR REPLACE FUNCTION peek_check(text) RETURNS boolean LANGUAGE sql STABLE
            SECURITY DEFINER AS $f$ SELECT $1 = (SELECT note FROM bob_only LIMIT 1) $f$;
          CREATE DOMAIN bob_guess AS text CHECK (peek_check(VALUE));
          REVOKE EXECUTE ON FUNCTION peek_op(int, int), peek_check(text) FROM PUBLIC;
          GRANT EXECUTE ON FUNCTION peek_op(int, int), peek_check(text) TO erin_role;
          """
              .formatted(BOB_SECRET));
    }
    Path ontology = Files.createTempDirectory("sonde-ident-ontology-");
    Files.writeString(
        ontology.resolve("retail.yaml"),
        Files.readString(Path.of("conf/ontology/retail.yaml"))
            .replace("connection: demo", "connection: ident"));
    dataDir = Files.createTempDirectory("sonde-ident-");
    Path tokenFile = dataDir.resolve("tokens.json");
    ApiTokens file = new ApiTokens(tokenFile);
    String loginUrl = adminUrl.replace("?user=postgres", "");
    Map<String, String> config = new HashMap<>();
    config.put("auth.mode", "tokens");
    config.put("auth.tokensFile", tokenFile.toString());
    config.put("data.dir", dataDir.toString());
    config.put("chatbi.ontology", ontology.toString());
    config.put("databases.defaultConnection", "ident");
    for (String name : List.of("ident", "identjdbc")) {
      String at = "databases.connections." + name + ".";
      config.put(at + "type", name.equals("ident") ? "postgres" : "jdbc");
      config.put(at + "url", loginUrl);
      config.put(at + "user", "ident_login");
      config.put(at + "accounts.alice.role", "alice_role");
      config.put(at + "accounts.bob.role", "bob_role");
      config.put(at + "accounts.dave.user", "dave_user");
      config.put(at + "accounts.erin.role", "erin_role");
    }
    List<String> tokens = new ArrayList<>();
    for (String account : List.of("alice", "bob", "carol", "dave", "erin")) {
      tokens.add(file.create(account, List.of("general"), null).token());
    }
    sonde = new InProcessSonde(config);
    alice = as(tokens.get(0));
    bob = as(tokens.get(1));
    carol = as(tokens.get(2));
    dave = as(tokens.get(3));
    erin = as(tokens.get(4));
  }

  private static ToolCalls as(String token) {
    HttpMcpClient client = new HttpMcpClient(sonde.port()).bearer(token);
    client.initialize("2025-11-25");
    return new ToolCalls(client);
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.inOrder(sonde, postgres);
  }

  /** A call's answer, kept so the last test can look for what must never have come back. */
  static JsonObject kept(JsonObject answer) {
    synchronized (answers) {
      answers.add(answer.encode());
    }
    return answer;
  }

  static String refusal(ToolCalls who, String tool, JsonObject args) {
    String text = who.refused(tool, args);
    synchronized (answers) {
      answers.add(text);
    }
    return text;
  }

  /** Who the database sees: the current role and the session's login. */
  static final String WHO = "SELECT current_user || '/' || session_user";

  /** The first value of the first row of an execute_query answer. */
  static String value(JsonObject answer) {
    return String.valueOf(answer.getJsonArray("rows").getJsonArray(0).getValue(0));
  }

  static JsonObject sql(String connection, String sql) {
    return new JsonObject().put("connection", connection).put("sql", sql);
  }

  static List<String> tables(ToolCalls who, String connection) {
    JsonObject listed = kept(who.ok("list_tables", new JsonObject().put("connection", connection)));
    List<String> names = new ArrayList<>();
    for (Object t : listed.getJsonArray("tables")) {
      String qualified = ((JsonObject) t).getString("name");
      names.add(qualified.substring(qualified.lastIndexOf('.') + 1));
    }
    return names;
  }

  @Test
  void eachAccountListsWhatItsRoleIsGranted() {
    for (String connection : List.of("ident", "identjdbc")) {
      List<String> seenByAlice = tables(alice, connection);
      List<String> seenByBob = tables(bob, connection);
      assertTrue(
          seenByAlice.containsAll(List.of("shared_sales", "alice_readings", "products")),
          seenByAlice.toString());
      assertFalse(seenByAlice.contains("bob_only"), seenByAlice.toString());
      assertEquals(List.of("bob_only", "shared_sales"), seenByBob.stream().sorted().toList());
      assertEquals(List.of("shared_sales"), tables(dave, connection));
    }
  }

  @Test
  void everyReadRunsAsTheAccountsRoleOnBothClients() {
    for (String connection : List.of("ident", "identjdbc")) {
      String query = WHO;
      assertEquals(
          "alice_role/ident_login", value(kept(alice.ok("execute_query", sql(connection, query)))));
      assertEquals(
          "bob_role/ident_login", value(kept(bob.ok("execute_query", sql(connection, query)))));
      assertEquals(
          "dave_user/dave_user", value(kept(dave.ok("execute_query", sql(connection, query)))));
      assertEquals(
          BOB_SECRET, value(bob.ok("execute_query", sql(connection, "SELECT note FROM bob_only"))));
    }
  }

  @Test
  void aTableGrantedToOneIsRefusedToTheOtherInTheEnginesWords() {
    for (String connection : List.of("ident", "identjdbc")) {
      String refused =
          refusal(alice, "execute_query", sql(connection, "SELECT note FROM bob_only"));
      assertTrue(refused.contains("permission denied for table bob_only"), refused);
      refused =
          refusal(
              alice,
              "describe_table",
              new JsonObject().put("connection", connection).put("table_name", "bob_only"));
      assertTrue(refused.contains("bob_only"), refused);
      refused = refusal(bob, "execute_query", sql(connection, "SELECT count(*) FROM products"));
      assertTrue(refused.contains("permission denied for table products"), refused);
    }
  }

  @Test
  void anAccountWithoutAnIdentityMayNotUseTheConnection() {
    String refused = refusal(carol, "execute_query", sql("ident", "SELECT 1"));
    assertTrue(refused.contains("account 'carol' has no database identity"), refused);
    refused = refusal(carol, "list_tables", new JsonObject().put("connection", "identjdbc"));
    assertTrue(refused.contains("databases.connections.identjdbc.accounts"), refused);
  }

  /**
   * The ways PostgreSQL lets a session change its role, each tried by alice: the role setting
   * through set_config, SET and RESET ROLE, the same inside a CTE or beside a read of bob's table.
   * Whatever comes back, the role of her next read is still hers and bob's row never reached her.
   */
  @Test
  void noReadChangesWhoTheDatabaseSees() throws Exception {
    List<String> escapes =
        List.of(
            "SELECT set_config('role', 'bob_role', false)",
            "SELECT set_config('role', 'ident_login', true), note FROM bob_only",
            "WITH r AS (SELECT set_config('role', 'bob_role', true) AS s) SELECT s FROM r",
            "SELECT pg_catalog.set_config('session_authorization', 'postgres', false)",
            "SET ROLE bob_role",
            "RESET ROLE",
            "SET SESSION AUTHORIZATION postgres",
            "SELECT 1; SET ROLE bob_role",
            "SELECT * FROM dblink('dbname=ident', 'SELECT note FROM bob_only') AS t(note text)",
            "SELECT query_to_xml('SELECT note FROM bob_only', true, false, '')",
            // functions an operator made that run as someone else, called every way PostgreSQL
            // calls them: by attribute notation too
            "SELECT s.peek FROM shared_sales s",
            "SELECT (s).peek FROM shared_sales s",
            "SELECT s.\"peek\" FROM shared_sales s",
            "SELECT peek(s) FROM shared_sales s",
            "SELECT peek_as_bob()",
            "SELECT \"peek_as_bob\"()",
            "SELECT public.peek_as_login()",
            // an aggregate whose step runs as its owner, and an operator and a domain whose
            // functions alice may not execute
            "SELECT tally(1)",
            "SELECT public.tally(amount) FROM shared_sales",
            "SELECT 1 ### 2",
            "SELECT 'x'::bob_guess");
    for (String connection : List.of("ident", "identjdbc")) {
      for (String escape : escapes) {
        JsonObject answer = kept(alice.call("execute_query", sql(connection, escape)));
        assertFalse(answer.encode().contains(BOB_SECRET), escape + " → " + answer.encode());
        JsonObject after = kept(alice.ok("execute_query", sql(connection, WHO)));
        assertEquals("alice_role/ident_login", value(after), escape);
        String refused =
            refusal(alice, "execute_query", sql(connection, "SELECT note FROM bob_only"));
        assertTrue(refused.contains("permission denied"), escape + " then: " + refused);
      }
    }
    // no server session was left with another role: every one of Sonde's is back at its login
    try (Connection admin = DriverManager.getConnection(adminUrl);
        Statement st = admin.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = 'ident'"
                    + " AND usename = 'ident_login' AND state = 'idle in transaction'")) {
      rs.next();
      assertEquals(0, rs.getLong(1), "a session of Sonde's was left inside a transaction");
    }
  }

  /**
   * A role that may run a function as its owner without naming it (behind an operator, a cast, a
   * type or a domain's check) is not served: the guard refuses such functions by name only. The
   * refusal names each function and what the operator must revoke; the other accounts still serve.
   */
  @Test
  void aRoleThatMayRunAnOwnersFunctionUnnamedIsNotServed() {
    for (String connection : List.of("ident", "identjdbc")) {
      String refused = refusal(erin, "execute_query", sql(connection, "SELECT 1 ### 2"));
      assertTrue(refused.contains("peek_op(integer,integer) (behind an operator)"), refused);
      assertTrue(refused.contains("peek_check(text) (behind a domain's check)"), refused);
      assertTrue(refused.contains("REVOKE EXECUTE"), refused);
      assertFalse(refused.contains(BOB_SECRET), refused);
      assertEquals(
          "alice_role/ident_login", value(kept(alice.ok("execute_query", sql(connection, WHO)))));
    }
  }

  /**
   * A server session serves one identity: what bob's reads leave on it (the statements it prepared,
   * which pg_prepared_statements lists whatever the role) never reaches alice.
   */
  @Test
  void noServerSessionServesTwoAccounts() {
    for (String connection : List.of("ident", "identjdbc")) {
      for (int i = 0; i < 3; i++) {
        bob.ok(
            "execute_query",
            sql(connection, "SELECT count(*) FROM bob_only WHERE note = '" + BOB_SECRET + "'"));
      }
      for (int i = 0; i < 6; i++) {
        String seen =
            kept(alice.ok("execute_query", sql(connection, "SELECT * FROM pg_prepared_statements")))
                .encode();
        assertFalse(seen.contains(BOB_SECRET), seen);
      }
    }
  }

  @Test
  void aChartAndChatBiGoThroughTheSameIdentity() {
    JsonObject spec =
        new JsonObject()
            .put("table", "alice_readings")
            .put("tags", new JsonArray().add("flow"))
            .put("kind", "tags")
            .put("rollup", "hour")
            .put("metrics", new JsonArray().add(new JsonObject().put("agg", "avg")))
            .put(
                "timeRange",
                new JsonObject()
                    .put("start", "2024-10-28T00:00:00Z")
                    .put("end", "2024-10-28T10:00:00Z"));
    JsonObject args = new JsonObject().put("spec", spec).put("timezone", "UTC");
    JsonObject chart = kept(alice.ok("compile_chart_from_spec", args));
    assertTrue(
        chart.getJsonObject("chart") != null && !chart.getJsonObject("summary").isEmpty(),
        chart.encode());
    String refused = refusal(bob, "compile_chart_from_spec", args);
    assertTrue(refused.contains("alice_readings"), refused);

    JsonObject answered =
        kept(alice.ok("chat_bi", new JsonObject().put("nlq", "Which store holds the most stock?")));
    assertTrue(answered.getBoolean("success"), answered.encode());
    JsonObject denied =
        kept(bob.ok("chat_bi", new JsonObject().put("nlq", "Which store holds the most stock?")));
    assertFalse(denied.getBoolean("success"), denied.encode());
    assertTrue(denied.encode().contains("permission denied"), denied.encode());
  }

  @Test
  void theAuditTrailNamesTheRoleEachCallRanAs() throws Exception {
    kept(alice.ok("execute_query", sql("ident", "SELECT 1")));
    kept(dave.ok("execute_query", sql("ident", "SELECT 1")));
    // the trail writes every 200 ms: wait for both lines, however busy the machine
    for (int tries = 0; ; tries++) {
      List<JsonObject> lines = auditLines();
      boolean both =
          lines.stream().anyMatch(l -> ran(l, "alice", "alice_role"))
              && lines.stream().anyMatch(l -> ran(l, "dave", "dave_user"));
      if (both) {
        assertTrue(
            lines.stream()
                .filter(l -> "bob".equals(l.getString("account")) && l.containsKey("connection"))
                .allMatch(l -> "bob_role".equals(l.getString("databaseRole"))),
            lines.toString());
        return;
      }
      assertTrue(tries < 300, "no audit lines naming the roles: " + lines);
      Thread.sleep(100);
    }
  }

  private static boolean ran(JsonObject line, String account, String role) {
    return account.equals(line.getString("account")) && role.equals(line.getString("databaseRole"));
  }

  private static List<JsonObject> auditLines() throws Exception {
    List<JsonObject> lines = new ArrayList<>();
    Path audit = dataDir.resolve("audit");
    if (!Files.isDirectory(audit)) {
      return lines;
    }
    try (Stream<Path> days = Files.list(audit)) {
      for (Path day : days.toList()) {
        for (String line : Files.readAllLines(day)) {
          if (line.endsWith("}")) {
            lines.add(new JsonObject(line));
          }
        }
      }
    }
    return lines;
  }

  @Test
  void bobsRowNeverReachedAnyoneElse() {
    // runs last by name order is not promised: it looks at whatever the others kept so far too
    kept(alice.call("execute_query", sql("ident", "SELECT * FROM bob_only")));
    synchronized (answers) {
      for (String answer : answers) {
        assertFalse(answer.contains(BOB_SECRET), answer);
      }
    }
  }
}
