package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.Answers;
import dev.sonde.support.Closing;
import dev.sonde.support.HeapPeak;
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
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Attacks on the wrapped reads of issue 17 (PostgreSQL: {@code (sql) UNION ALL SELECT NULL … WHERE
 * false}, cut columns read as {@code left(q."col", N)}, shapes kept per text). Each attack checks
 * the effect (rows, files, settings, locks, prepared statements, heap) with a separate superuser
 * connection or through a probe, never the answer alone.
 *
 * <p>Tests named {@code finding…} showed a real problem on the commit they were written against
 * (6218d44) and hold since it was fixed; the others held from the start.
 */
class ShapeAttackTest {
  static TestPostgres postgres;
  static String url;
  static String trojanUrl;
  static Path folder;
  static Path marker;
  static Path trojanMarker;
  static Path secret;
  static InProcessSonde sonde;
  static ToolCalls tools;
  static HttpMcpClient client;

  static final String SECRET = "S3CR3T-" + Long.toHexString(System.nanoTime());

  @BeforeAll
  static void start() throws Exception {
    postgres = TestPostgres.start();
    url = postgres.createDatabase("shapes");
    trojanUrl = postgres.createDatabase("trojan");
    folder = Files.createTempDirectory("sonde-shapes-");
    marker = folder.resolve("marker.txt");
    trojanMarker = folder.resolve("trojan-marker.txt");
    secret = folder.resolve("secret.txt");
    Files.writeString(secret, SECRET);
    admin("CREATE TABLE canary (v int)");
    admin("INSERT INTO canary VALUES (1)");
    Map<String, String> config = new LinkedHashMap<>();
    config.put("databases.defaultConnection", "pg");
    // pools of one: the session probed is the session attacked
    config.put("jobs.workerPoolSize", "1");
    config.put("docs.enabled", "false");
    for (String name :
        List.of("pg", "jdbcpg", "pgengine", "jdbcpgengine", "pgtrojan", "jdbcpgtrojan")) {
      String at = "databases.connections." + name + ".";
      config.put(at + "type", name.startsWith("jdbc") ? "jdbc" : "postgres");
      config.put(at + "url", name.endsWith("trojan") ? trojanUrl : url);
      config.put(at + "queryTimeoutSeconds", "10");
      config.put(at + "maxSqlLength", "100000");
      config.put(at + "guard", name.endsWith("engine") ? "engine-only" : "strict");
    }
    sonde = new InProcessSonde(config);
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
    tools = new ToolCalls(client);
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.inOrder(client, sonde, postgres);
  }

  // ---------------------------------------------------------------------------------------------
  // FINDING 1: the wrapper's unqualified left() resolves through search_path
  // ---------------------------------------------------------------------------------------------

  /**
   * Any role that may CREATE in a schema on Sonde's search_path (PostgreSQL 14's default for {@code
   * public}) plants {@code public.left(varchar, integer)}: for a varchar column it is a better
   * match than {@code pg_catalog.left(text, integer)}, so the cut shape {@code left(q."v", 4001)}
   * calls it, with Sonde's role's rights, for every agent that reads the column. Written plainly,
   * {@code left()} is refused by the guard (the catalogue marks an overload volatile). Here the
   * planted function runs COPY TO PROGRAM (allowed in a read-only transaction) and reads a server
   * file.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pgtrojan", "jdbcpgtrojan"})
  void findingTheWrappersLeftCallsAFunctionPlantedInPublic(String connection) throws Exception {
    plantTrojan();
    String plainly = tools.refused("execute_query", sql(connection, "SELECT left(v, 3) FROM t"));
    assertTrue(plainly.contains("left() is not allowed"), plainly);
    Files.deleteIfExists(trojanMarker);
    JsonObject answer = tools.ok("execute_query", sql(connection, "SELECT v FROM t"));
    assertFalse(
        Files.exists(trojanMarker),
        connection + ": the wrapper's left() ran the planted function (COPY TO PROGRAM ran)");
    assertFalse(
        answer.encode().contains(SECRET), connection + ": a server file reached the answer");
    assertEquals("plain value", answer.getJsonArray("rows").getJsonArray(0).getString(0));
  }

  private static boolean planted;

  private static synchronized void plantTrojan() throws SQLException {
    if (planted) {
      return;
    }
    planted = true;
    try (Connection db = DriverManager.getConnection(trojanUrl);
        Statement st = db.createStatement()) {
      st.execute("CREATE TABLE t (v varchar)");
      st.execute("INSERT INTO t VALUES ('plain value')");
      st.execute("CREATE ROLE low LOGIN");
      st.execute("GRANT SELECT ON t TO low");
    }
    // an unprivileged role: PostgreSQL 14 lets every role create objects in public
    try (Connection low =
            DriverManager.getConnection(trojanUrl.replace("user=postgres", "user=low"));
        Statement st = low.createStatement()) {
      st.execute(
          "CREATE FUNCTION public.left(character varying, integer) RETURNS text LANGUAGE plpgsql"
              + " AS $f$ BEGIN"
              + " EXECUTE 'COPY (SELECT 1) TO PROGRAM ''touch "
              + trojanMarker
              + "''';"
              + " RETURN pg_read_file('"
              + secret
              + "'); END $f$");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // FINDING 2: a kept shape without cuts does not check names
  // ---------------------------------------------------------------------------------------------

  /**
   * A read with no long text column is kept as {@code (sql) UNION ALL SELECT NULL, NULL WHERE
   * false}: that checks the number of columns and (through {@code fits}) their types, never their
   * names, yet the answer names the columns as described when the shape was kept. After a rename,
   * or a column dropped and another of the same type added, values come back under the old name.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void findingAKeptShapeWithoutCutsShowsColumnsUnderStaleNames(String connection)
      throws SQLException {
    String table = "names_" + connection;
    table(table, "id int, price int", "1, 10");
    String read = "SELECT * FROM " + table;
    assertEquals("id:int4=1 price:int4=10", shown(connection, read));
    assertEquals("id:int4=1 price:int4=10", shown(connection, read));
    // the reactive session's own prepared wrapper would fail on the rename (PostgreSQL 14
    // compares names when it revalidates a cached plan); another session has none
    forgetSessionStatements(connection);
    admin("ALTER TABLE " + table + " RENAME COLUMN price TO cost");
    List<String> seen = new ArrayList<>();
    seen.add(shown(connection, read));
    admin("ALTER TABLE " + table + " DROP COLUMN cost");
    admin("ALTER TABLE " + table + " ADD COLUMN stock int DEFAULT 99");
    forgetSessionStatements(connection);
    seen.add(shown(connection, read));
    assertEquals(List.of("id:int4=1 cost:int4=10", "id:int4=1 stock:int4=99"), seen);
  }

  /**
   * Pushes every statement the connection's only reactive session has prepared out of its bound
   * (256 per session), as a second pooled session would have none; the kept shapes (512) stay.
   */
  private static void forgetSessionStatements(String connection) {
    if (connection.startsWith("jdbc")) {
      return;
    }
    for (int i = 0; i < 270; i++) {
      tools.ok("execute_query", sql(connection, "SELECT " + i + " AS filler_" + i));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // FINDING 3: a json/jsonb/xml cut casts through the described type
  // ---------------------------------------------------------------------------------------------

  /**
   * The cut of a jsonb column is kept as {@code left(q."j"::jsonb::text, N)}. When the column
   * becomes text the check passes (text casts to jsonb), so every later read parses the text as
   * JSON: a value that is not JSON fails each call with "invalid input syntax for type json", an
   * error the text as written never gives and which is not in the changed-columns SQLSTATEs, so the
   * shape is never forgotten; one that is JSON comes back normalized.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void findingAJsonbCutKeptAfterTheColumnBecameTextParsesEveryValue(String connection)
      throws SQLException {
    String table = "doc_" + connection;
    admin("DROP TABLE IF EXISTS " + table);
    admin("CREATE TABLE " + table + " (id int, j jsonb)");
    admin("INSERT INTO " + table + " VALUES (1, '{\"a\": 1}')");
    String read = "SELECT * FROM " + table;
    shown(connection, read);
    assertEquals("id:int4=1 j:jsonb={\"a\": 1}", shown(connection, read));
    admin("ALTER TABLE " + table + " ALTER COLUMN j TYPE text");
    admin("UPDATE " + table + " SET j = '{\"b\":1,  \"a\":2}'");
    List<String> seen = new ArrayList<>();
    seen.add(answerOrError(connection, read));
    admin("UPDATE " + table + " SET j = 'not json'");
    for (int call = 0; call < 3; call++) {
      seen.add(answerOrError(connection, read));
    }
    assertEquals(
        List.of(
            "id:int4=1 j:text={\"b\":1,  \"a\":2}",
            "id:int4=1 j:text=not json",
            "id:int4=1 j:text=not json",
            "id:int4=1 j:text=not json"),
        seen);
  }

  /**
   * A known limit (README): a text column cut with {@code left()} whose type becomes char(n) passes
   * the check (bpchar resolves with text), so the kept shape reads the value as text, its padding
   * dropped, until the shape is described again. The value itself is never another row's or
   * column's.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aTextCutKeptAfterTheColumnBecameCharKeepsItsValueButNotItsPadding(String connection)
      throws SQLException {
    String table = "padded_" + connection;
    table(table, "id int, s text", "1, 'ab'");
    String read = "SELECT * FROM " + table;
    shown(connection, read);
    shown(connection, read);
    admin("ALTER TABLE " + table + " ALTER COLUMN s TYPE char(5)");
    String seen = shown(connection, read);
    assertEquals("id:int4=1 s:text=ab", seen);
  }

  // ---------------------------------------------------------------------------------------------
  // FINDING 4: a kept shape reads a value whole once after a column became text
  // ---------------------------------------------------------------------------------------------

  /**
   * A read kept without cuts whose int column becomes text passes the check (NULL is of any type);
   * the result no longer fits, so the shape is forgotten, but only after this read carried the
   * whole value into the JVM. Measured by the heap, as in PostgresWallsTest.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void findingAValueIsReadWholeOnceAfterItsColumnBecameText(String connection) throws SQLException {
    String table = "grown_" + connection;
    table(table, "id int, n int", "1, 2");
    String read = "SELECT * FROM " + table;
    shown(connection, read);
    shown(connection, read);
    // the reactive session's own prepared wrapper fails on the retype ("cached plan must not
    // change result type"); a session without it prepares the wrapper fresh
    forgetSessionStatements(connection);
    admin("ALTER TABLE " + table + " ALTER COLUMN n TYPE text USING repeat('x', 100000000)");
    long[] grew = new long[3];
    for (int call = 0; call < 3; call++) {
      int c = call;
      JsonObject[] answer = new JsonObject[1];
      grew[c] =
          HeapPeak.during(() -> answer[0] = tools.call("execute_query", sql(connection, read)));
    }
    admin("DROP TABLE " + table);
    for (int call = 0; call < 3; call++) {
      assertTrue(
          grew[call] < 50_000_000L,
          "call " + call + " after the retype grew the heap by " + grew[call] / 1_000_000 + " MB");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // FINDING 5: server-side prepared statements leak each time a shape is lost
  // ---------------------------------------------------------------------------------------------

  /**
   * Each time a kept shape is lost (a column change, or the 512-text LRU), the next call prepares
   * the text as written again and {@code PreparedStatements.keep} replaces the session's statement
   * for it without closing the old one: a named statement stays on the server for the session's
   * life. Counted in pg_prepared_statements of the one pooled session.
   */
  @Test
  void findingEachLostShapeLeaksAPreparedStatementOnTheSession() throws SQLException {
    table("leak_t", "a int", "1");
    String read = "SELECT * FROM leak_t";
    String probe =
        "SELECT count(*)::int AS n FROM pg_prepared_statements p WHERE p.\"statement\" = '"
            + read
            + "'";
    List<Integer> counts = new ArrayList<>();
    for (int cycle = 0; cycle < 6; cycle++) {
      tools.ok("execute_query", sql("pg", read));
      tools.ok("execute_query", sql("pg", read));
      admin("ALTER TABLE leak_t ADD COLUMN c" + cycle + " int");
      tools.ok("execute_query", sql("pg", read));
      counts.add(
          ((Number)
                  tools
                      .ok("execute_query", sql("pg", probe))
                      .getJsonArray("rows")
                      .getJsonArray(0)
                      .getValue(0))
              .intValue());
    }
    assertTrue(
        counts.stream().allMatch(n -> n <= 1),
        "statements prepared on the session for one text: " + counts);
  }

  // ---------------------------------------------------------------------------------------------
  // FINDING 6: errors that name Sonde's wrapper, and a valid read that fails wrapped
  // ---------------------------------------------------------------------------------------------

  /**
   * guard: engine-only on the reactive client: a row-locking read with a text column fails inside
   * the wrapper ("FOR UPDATE is not allowed with UNION/INTERSECT/EXCEPT"), a data-modifying WITH
   * fails as "must be at the top level": the agent hears of a UNION it never wrote instead of the
   * read-only transaction's refusal. No lock survives and nothing is written either way.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pgengine", "jdbcpgengine"})
  void findingEngineOnlyRefusalsNameTheWrapper(String connection) throws SQLException {
    table("locked", "id int, note text", "1, 'n'");
    List<String> errors = new ArrayList<>();
    for (String text :
        List.of(
            "SELECT * FROM locked FOR UPDATE",
            "SELECT * FROM locked FOR KEY SHARE",
            "WITH d AS (DELETE FROM canary RETURNING v::text AS s) SELECT * FROM d",
            "WITH i AS (INSERT INTO canary VALUES (666) RETURNING v::text AS s) SELECT * FROM i")) {
      String error = tools.refused("execute_query", sql(connection, text));
      errors.add(error);
      assertEquals(0, lingeringLocks(), "a lock outlived the call: " + text);
    }
    assertEquals(1, adminCount("SELECT count(*) FROM canary"), "canary changed");
    for (String error : errors) {
      assertTrue(error.contains("read-only transaction"), error);
    }
  }

  /**
   * The query-start pattern reads comments without nesting, PostgreSQL nests them: {@code /* /* *}
   * {@code / SELECT *}{@code / SHOW work_mem} is a SHOW to the server and to the guard, but a query
   * to the pattern, so the reactive client wraps it and the server refuses the wrapper (jdbc falls
   * back to the text as written).
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg", "pgengine", "jdbcpgengine"})
  void findingANestedCommentMakesAShowLookLikeAQuery(String connection) {
    String text = "/* /* */ SELECT */ SHOW work_mem";
    JsonObject result = tools.call("execute_query", sql(connection, text));
    assertFalse(result.getBoolean("isError", false), result.encode());
  }

  /**
   * {@code Dialect.QUERY_START} is a backtracking regex whose group recurses once per space or
   * comment: some 2,000 leading blanks overflow the thread's stack while deciding whether to wrap.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg", "pgengine", "jdbcpgengine"})
  void findingLeadingBlanksOverflowTheStackOfTheWrapDecision(String connection) {
    List<String> outcomes = new ArrayList<>();
    for (String text :
        List.of(
            "--\n".repeat(20000) + "SELECT 'x'::text AS v",
            "/**/".repeat(15000) + "SELECT 'x'::text AS v")) {
      JsonObject raw =
          client.request(
              System.nanoTime(),
              "tools/call",
              new JsonObject()
                  .put("name", "execute_query")
                  .put("arguments", sql(connection, text)));
      outcomes.add(raw.getJsonObject("result") == null ? raw.encode() : "answered");
    }
    // the server still answers afterwards
    assertEquals("x", value(tools.ok("execute_query", sql(connection, "SELECT 'x' AS v"))));
    assertEquals(List.of("answered", "answered"), outcomes);
  }

  /**
   * The reactive client decides twice whether a text can be wrapped: once in {@code
   * Database.reactiveQuery} (a shallow stack on the event loop), and again in {@code shape}, called
   * from {@code ReactivePostgres.fetch} inside the callback of the Describe answer, some netty
   * frames deeper, after {@code BEGIN READ ONLY} and the Describe have run. A text just long enough
   * passes the first and overflows in the second: the exception escapes the transform, no ROLLBACK
   * is sent, and the pooled session stays idle in transaction holding the Describe's locks until
   * its next read.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "pgengine"})
  void findingAnOverflowBetweenDescribeAndReadLeavesTheTransactionOpen(String connection)
      throws Exception {
    admin("DROP TABLE IF EXISTS held_" + connection);
    admin("CREATE TABLE held_" + connection + " (v text)");
    String tail = "SELECT v FROM held_" + connection;
    // the pattern compiled by the JIT first, so that how deep it can go stays put
    for (int i = 0; i < 400; i++) {
      rawCall(connection, "--\n".repeat(300 + i % 7) + tail);
    }
    // upwards until a call fails, then one comment at a time around where it began to
    List<String> leaked = new ArrayList<>();
    StringBuilder outcomes = new StringBuilder();
    int low = -1;
    for (int n = 500; n <= 21000 && low < 0; n += 100) {
      JsonObject raw = rawCall(connection, "--\n".repeat(n) + tail);
      outcomes.append(raw.getJsonObject("result") == null ? 'x' : '.');
      check(connection, n, raw, leaked);
      if (raw.getJsonObject("result") == null) {
        low = n;
      }
    }
    outcomes.append('|');
    for (int n = Math.max(100, low - 200); n <= low + 200 && leaked.isEmpty(); n++) {
      JsonObject raw = rawCall(connection, "--\n".repeat(n) + tail);
      outcomes.append(raw.getJsonObject("result") == null ? 'x' : '.');
      check(connection, n, raw, leaked);
    }
    assertEquals(List.of(), leaked);
  }

  /** Whether the call just made left a transaction open: then DDL on its table waits. */
  private static void check(String connection, int n, JsonObject raw, List<String> leaked)
      throws SQLException {
    long open = openTransactions();
    long locks = lingeringLocks();
    if (open > 0 || locks > 0) {
      String blocked = ddlBlocked("ALTER TABLE held_" + connection + " ADD COLUMN x int");
      leaked.add(
          n
              + " comments: "
              + open
              + " open, "
              + locks
              + " locks, DDL: "
              + blocked
              + ", answer "
              + clip(raw.encode()));
      cleanUp(connection);
    }
  }

  private static JsonObject rawCall(String connection, String text) {
    return client.request(
        System.nanoTime(),
        "tools/call",
        new JsonObject().put("name", "execute_query").put("arguments", sql(connection, text)));
  }

  /** A read on the pool's one session ends whatever transaction it had open. */
  private static void cleanUp(String connection) {
    tools.ok("execute_query", sql(connection, "SELECT 1 AS one"));
  }

  static long openTransactions() throws SQLException {
    return adminCount(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = 'shapes'"
            + " AND state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()");
  }

  /** What a DDL statement waiting at most a second for its lock says. */
  static String ddlBlocked(String ddl) {
    try (Connection db = DriverManager.getConnection(url);
        Statement st = db.createStatement()) {
      st.execute("SET lock_timeout = '1s'");
      st.execute(ddl);
      return "ran";
    } catch (SQLException e) {
      return e.getSQLState() + " " + e.getMessage();
    }
  }

  private static String clip(String s) {
    return s.length() > 600 ? s.substring(0, 600) + "…" : s;
  }

  // ---------------------------------------------------------------------------------------------
  // FINDING 7: Unicode white space at the end is stripped from the wrapped text only
  // ---------------------------------------------------------------------------------------------

  /**
   * {@code Dialect.subquery} strips with {@link String#strip()}, which removes Java's Unicode white
   * space (U+3000, U+2028, U+1680, U+2000–U+200A…); PostgreSQL reads those characters as part of an
   * identifier. {@code SELECT v FROM wide\u3000} names the table "wide\u3000" as written, and
   * "wide" wrapped: the answer is another table's rows.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg", "pgengine", "jdbcpgengine"})
  void findingTrailingUnicodeSpaceIsStrippedFromTheWrappedTextOnly(String connection)
      throws SQLException {
    admin("DROP TABLE IF EXISTS wide, \"wide\u3000\"");
    admin("CREATE TABLE wide (v text)");
    admin("INSERT INTO wide VALUES ('the other table')");
    admin("CREATE TABLE \"wide\u3000\" (v text)");
    admin("INSERT INTO \"wide\u3000\" VALUES ('the table named')");
    String text = "SELECT v FROM wide\u3000";
    JsonObject first = tools.call("execute_query", sql(connection, text));
    JsonObject second = tools.call("execute_query", sql(connection, text));
    for (JsonObject answer : List.of(first, second)) {
      if (!answer.getBoolean("isError", false)) {
        assertEquals(
            "the table named",
            answer
                .getJsonObject("structuredContent")
                .getJsonArray("rows")
                .getJsonArray(0)
                .getString(0));
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Observation (jdbc): pgjdbc names a serial column "serial" as written, "int4" wrapped
  // ---------------------------------------------------------------------------------------------

  /**
   * pgjdbc reports a column with a nextval default as "serial" when the result carries its table
   * (as written) and "int4" through the wrapper (a UNION's columns have no table): the described
   * types never fit the wrapped result, so no shape with such a column is ever kept on type: jdbc
   * and the column's type flips between calls.
   */
  @Test
  void findingASerialColumnNeverLetsAJdbcShapeBeKept() throws SQLException {
    admin("DROP TABLE IF EXISTS serials");
    admin("CREATE TABLE serials (id serial, n int)");
    admin("INSERT INTO serials (n) VALUES (5)");
    List<String> seen = new ArrayList<>();
    for (int call = 0; call < 4; call++) {
      seen.add(shown("jdbcpg", "SELECT * FROM serials"));
    }
    assertEquals(1, seen.stream().distinct().count(), "the answer changes between calls: " + seen);
  }

  /**
   * Two cut columns swap names: the kept shape {@code left(q."body") AS "body", left(q."tag") AS
   * "tag"} still passes its check and reads each value under its current name; a known limit
   * (README) is that it keeps the old order, where {@code SELECT *} as written lists the columns in
   * table order.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aKeptCutShapeReadsSwappedColumnsUnderTheirNewNames(String connection) throws SQLException {
    String table = "swapped_" + connection;
    table(table, "id int, body text, tag text", "1, 'B', 'T'");
    String read = "SELECT * FROM " + table;
    shown(connection, read);
    shown(connection, read);
    admin("ALTER TABLE " + table + " RENAME COLUMN body TO tmp");
    admin("ALTER TABLE " + table + " RENAME COLUMN tag TO body");
    admin("ALTER TABLE " + table + " RENAME COLUMN tmp TO tag");
    String seen = shown(connection, read);
    assertEquals(
        java.util.Set.of("id:int4=1", "tag:text=B", "body:text=T"),
        java.util.Set.of(seen.split(" ")));
  }

  // ---------------------------------------------------------------------------------------------
  // Regression: parse contexts, names that are SQL, effects
  // ---------------------------------------------------------------------------------------------

  /** Texts whose wrapped form could mean something else; each must answer as written. */
  static List<String> parseContexts() {
    String e40 = "é".repeat(40);
    return List.of(
        "SELECT 'x'::text AS \"a\"\" , pg_read_file('" + "{secret}" + "') AS \"\"b\"",
        "SELECT 'x'::text AS \"a\"\") AS q; COPY (SELECT 1) TO PROGRAM 'touch {marker}'; --\", 2 AS n",
        "SELECT 'x'::text AS \"x\"\") UNION ALL SELECT 1 FROM (SELECT 1) AS z --\"",
        "SELECT repeat('y', 10)::text AS v -- trailing comment",
        "SELECT repeat('y', 10)::text AS v --x\r",
        "SELECT 'v'::text AS v --x\r, 2 AS n",
        "SELECT 'v'::text AS v /* a /* nested */ ) still */",
        "SELECT 'v'::text AS v /* ends in a comment */",
        "SELECT $q$)$q$::text AS v, $$ ( $$::text AS w",
        "SELECT E'\\')'::text AS v",
        "SELECT 'a'\n')'::text AS v",
        "SELECT 'a' -- c\n')'::text AS v",
        "SELECT 'x'::text AS U&\"!0061!0029\" UESCAPE '!'",
        "SELECT 'x'::text AS U&\"\\0029\\003B\\002D\\002D\"",
        "SELECT 1 AS n, 'x'::text AS \"" + e40 + "\"",
        "SELECT 'x'::text AS \"" + "a".repeat(100) + "\"",
        "SELECT 'x'::text AS v;;",
        "SELECT 'x'::text AS v ; -- c",
        "SELECT 'x'::text AS v -- ; SELECT 1",
        "SELECT 'x'::text AS v\n--",
        "SELECT 'x'::text AS v, 1 AS n\r",
        "SELECT 'x'::text AS \"q\", 'y'::text AS \"c1\", 3 AS \"?column?\"",
        "SELECT 'x'::text, 'y'::text",
        "SELECT 'x'::text AS \"a?b\", 1 AS \"c??\", ('{\"a\":1}'::jsonb ? 'a')::int AS has",
        "SELECT 'x'::text AS \"v\"\"\", '\"'::text AS \"\"\"\"",
        "SELECT 'x'::text AS \"a\nb\"",
        "SELECT 'x'::text AS \"/*\", 'y'::text AS \"--\", 'z'::text AS \"$a$\"",
        "SELECT 'x' AS v",
        "(SELECT 'x'::text AS v) ORDER BY 1",
        "SELECT * FROM (VALUES ('a'::text)) AS t(\")\")",
        "SELECT '<a/>'::xml AS x, '{\"k\": [1]}'::json AS j, 'v'::varchar AS c",
        "VALUES ('a'::text, 1)",
        "TABLE canary",
        "SELECT 'x'::text AS v --\r) UNION ALL (SELECT 'pwn'::text",
        "SELECT 'x'::text AS v FROM canary FOR UPDATE",
        "SELECT 'x'::text AS v INTO TEMP leaked FROM canary",
        "WITH d AS (DELETE FROM canary RETURNING v::text AS s) SELECT * FROM d",
        "WITH i AS (INSERT INTO canary VALUES (666) RETURNING v::text AS s) SELECT * FROM i",
        "SELECT 'x'::text AS v FROM canary WHERE v = 1 --\r FOR UPDATE");
  }

  /**
   * Each text twice (described, then its shape kept) on every connection: an answer is the text's
   * as written (columns and rows), an error is allowed; nothing is written, no file appears, no
   * lock or temp table survives, and each session keeps its settings.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg", "pgengine", "jdbcpgengine"})
  void wrappedTextsMeanWhatTheyMeanAsWritten(String connection) throws Exception {
    Map<String, String> before = session(connection);
    List<String> mismatches = new ArrayList<>();
    for (String template : parseContexts()) {
      String text =
          template.replace("{secret}", secret.toString()).replace("{marker}", marker.toString());
      Result expected = asWritten(text);
      for (int call = 1; call <= 2; call++) {
        JsonObject result = tools.call("execute_query", sql(connection, text));
        String encoded = result.encode();
        assertFalse(encoded.contains(SECRET), "a file reached the answer: " + text);
        if (!result.getBoolean("isError", false)) {
          Result got = Result.of(result.getJsonObject("structuredContent"));
          if (!got.equals(expected)) {
            mismatches.add(call + ": " + clip(text) + " -> " + got + " expected " + expected);
          }
        } else if (expected.error() == null
            && mustAnswer(template)
            && !result
                .getJsonArray("content")
                .getJsonObject(0)
                .getString("text")
                .startsWith("rejected:")) {
          mismatches.add(
              call + ": " + clip(text) + " refused: " + clip(encoded) + " expected " + expected);
        }
        assertFalse(Files.exists(marker), "COPY TO PROGRAM ran: " + text);
        assertEquals(1, adminCount("SELECT count(*) FROM canary"), "canary changed: " + text);
        assertEquals(0, lingeringLocks(), "a lock outlived the call: " + text);
        assertEquals(
            0,
            adminCount("SELECT count(*) FROM pg_class WHERE relname = 'leaked'"),
            "a table was created: " + text);
      }
    }
    assertEquals(before, session(connection), "the session's settings changed");
    assertEquals(List.of(), mismatches);
  }

  /** The texts the guard and the server both accept as written. */
  private static boolean mustAnswer(String template) {
    return !template.contains("{secret}")
        && !template.contains("FOR UPDATE")
        && !template.contains("INTO TEMP")
        && !template.contains("WITH d AS")
        && !template.contains("WITH i AS")
        && !template.contains("'pwn'");
  }

  // ---------------------------------------------------------------------------------------------
  // Regression: order, limits, set operations
  // ---------------------------------------------------------------------------------------------

  static List<String> orderedReads() {
    return List.of(
        "SELECT g, md5(g::text) AS h FROM generate_series(1, 3000) g ORDER BY h",
        "SELECT g, md5(g::text) AS h FROM generate_series(1, 3000) g ORDER BY h DESC LIMIT 20 OFFSET 7",
        "SELECT DISTINCT ON (g % 7) g % 7 AS k, md5(g::text) AS h FROM generate_series(1, 300) g"
            + " ORDER BY g % 7, h",
        "SELECT DISTINCT md5((g % 13)::text) AS h FROM generate_series(1, 300) g ORDER BY 1",
        "VALUES (3, 'c'), (1, 'a'), (2, 'b') ORDER BY 1 DESC",
        "WITH RECURSIVE r(n, s) AS (SELECT 1, 'a'::text UNION ALL SELECT n + 1, s || 'a' FROM r"
            + " WHERE n < 30) SELECT * FROM r ORDER BY n DESC",
        "SELECT 'a'::text AS s UNION SELECT 'b' EXCEPT SELECT 'a' ORDER BY 1",
        "(SELECT md5(g::text) AS h FROM generate_series(1, 50) g ORDER BY 1 LIMIT 3) UNION ALL"
            + " (SELECT 'zzz') ORDER BY 1 DESC",
        "SELECT g % 3 AS k, md5((g % 3)::text) AS h FROM generate_series(1, 100) g ORDER BY k"
            + " FETCH FIRST 2 ROWS WITH TIES",
        "SELECT g FROM generate_series(1, 3000) g ORDER BY (g * 7919) % 3001",
        "SELECT g, md5(g::text) AS h FROM generate_series(1, 5000) g ORDER BY h LIMIT 3 OFFSET 4990",
        "TABLE canary",
        "SELECT count(*) AS n, string_agg(md5(g::text), '' ORDER BY g) AS s FROM generate_series(1, 10) g");
  }

  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg", "pgengine", "jdbcpgengine"})
  void wrappingKeepsOrderLimitsAndSetOperations(String connection) throws Exception {
    List<String> mismatches = new ArrayList<>();
    for (String text : orderedReads()) {
      Result expected = asWritten(text);
      for (int call = 1; call <= 2; call++) {
        Result got = Result.of(tools.ok("execute_query", sql(connection, text)));
        if (!expected.startsWith(got)) {
          mismatches.add(call + ": " + text + " -> " + got + " expected " + expected);
        }
      }
    }
    assertEquals(List.of(), mismatches);
  }

  // ---------------------------------------------------------------------------------------------
  // Regression: kept cut shapes under concurrent calls and schema changes
  // ---------------------------------------------------------------------------------------------

  /**
   * Four callers read the same text while an admin swaps the names of its two cut columns, again
   * and again: every answer names its columns as the table had them at some moment and carries the
   * values of those columns; errors may happen, never a wrong answer.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void keptCutShapesHoldUnderConcurrentCallsAndRenames(String connection) throws Exception {
    String table = "racing_" + connection;
    table(table, "id int, body text, tag text", "1, 'B', 'T'");
    String read = "SELECT * FROM " + table;
    shown(connection, read);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<List<String>>> readers = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      readers.add(
          pool.submit(
              () -> {
                ToolCalls own = ToolCalls.over(sonde.port());
                List<String> seen = new ArrayList<>();
                for (int i = 0; i < 25; i++) {
                  seen.add(answerOrErrorWith(own, connection, read));
                }
                return seen;
              }));
    }
    for (int i = 0; i < 10; i++) {
      admin("ALTER TABLE " + table + " RENAME COLUMN body TO tmp");
      admin("ALTER TABLE " + table + " RENAME COLUMN tag TO body");
      admin("ALTER TABLE " + table + " RENAME COLUMN tmp TO tag");
      Thread.sleep(20);
    }
    // the states the table passes through: column name to value, in column order
    List<String> states =
        List.of(
            "body=B tag=T",
            "tmp=B tag=T",
            "tmp=B body=T",
            "tag=B body=T",
            "tag=B tmp=T",
            "body=B tmp=T");
    // an error, or the old column order (a known limit), is allowed; a value under a wrong name not
    List<String> wrong = new ArrayList<>();
    for (Future<List<String>> reader : readers) {
      for (String seen : reader.get(120, TimeUnit.SECONDS)) {
        String named = seen.replace("id:int4=1 ", "").replace(":text", "");
        String[] parts = named.split(" ");
        String swapped = parts.length == 2 ? parts[1] + " " + parts[0] : named;
        if (!seen.startsWith("error") && !states.contains(named) && !states.contains(swapped)) {
          wrong.add(seen);
        }
      }
    }
    pool.shutdownNow();
    assertEquals(List.of(), wrong);
  }

  // ---------------------------------------------------------------------------------------------
  // Regression: the retry paths end, the real error reaches the caller
  // ---------------------------------------------------------------------------------------------

  /**
   * A kept shape whose text now fails for its own reasons (a dropped function, a dropped table):
   * one retry, then the server's own words about the text as written, not about Sonde's q alias.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pg", "jdbcpg"})
  void aKeptShapeWhoseTextBrokeReportsTheTextsOwnError(String connection) throws SQLException {
    String table = "broken_" + connection;
    table(table, "id int, body text", "1, 'b'");
    admin(
        "CREATE OR REPLACE FUNCTION twice_"
            + connection
            + "(int) RETURNS int IMMUTABLE"
            + " LANGUAGE sql AS 'SELECT $1 * 2'");
    String read = "SELECT twice_" + connection + "(id) AS d, body FROM " + table;
    shown(connection, read);
    shown(connection, read);
    admin("DROP FUNCTION twice_" + connection + "(int)");
    long start = System.nanoTime();
    String error = tools.refused("execute_query", sql(connection, read));
    assertTrue((System.nanoTime() - start) / 1_000_000 < 5_000, "the retries took long");
    assertTrue(error.contains("twice_" + connection), error);
    assertFalse(error.contains("q."), error);
    admin("ALTER TABLE " + table + " DROP COLUMN body");
    String read2 = "SELECT body, id FROM " + table;
    error = tools.refused("execute_query", sql(connection, read2));
    assertTrue(error.contains("body"), error);
    assertFalse(error.contains("q."), error);
  }

  /** Prepared statements on the session stay bounded however many texts are read. */
  @Test
  void preparedStatementsStayBoundedForManyTexts() {
    for (int i = 0; i < 600; i++) {
      tools.ok(
          "execute_query",
          sql("pg", "SELECT " + i + " AS n" + (i % 2 == 0 ? ", 'x'::text AS t" : "")));
    }
    int count =
        ((Number)
                tools
                    .ok(
                        "execute_query",
                        sql("pg", "SELECT count(*)::int AS n FROM pg_prepared_statements"))
                    .getJsonArray("rows")
                    .getJsonArray(0)
                    .getValue(0))
            .intValue();
    assertTrue(count <= 260, "prepared statements on the session: " + count);
  }

  // ---------------------------------------------------------------------------------------------
  // helpers
  // ---------------------------------------------------------------------------------------------

  /** Columns (name) and rows (values as text) of an answer, or the error. */
  record Result(List<String> columns, List<List<String>> rows, String error) {
    static Result of(JsonObject answer) {
      List<String> columns = new ArrayList<>();
      for (Object c : answer.getJsonArray("columns")) {
        columns.add(((JsonObject) c).getString("name"));
      }
      List<List<String>> rows = new ArrayList<>();
      for (Object r : answer.getJsonArray("rows")) {
        List<String> row = new ArrayList<>();
        for (Object v : (JsonArray) r) {
          row.add(v == null ? null : String.valueOf(v));
        }
        rows.add(row);
      }
      return new Result(columns, rows, null);
    }

    /** The same columns, and {@code prefix}'s rows are this one's first. */
    boolean startsWith(Result prefix) {
      return error == null
          && columns.equals(prefix.columns)
          && prefix.rows.size() <= rows.size()
          && rows.subList(0, prefix.rows.size()).equals(prefix.rows)
          && !prefix.rows.isEmpty() == !rows.isEmpty();
    }
  }

  /** The text as written on a superuser connection, in a read-only transaction. */
  static Result asWritten(String written) throws SQLException {
    // the one statement the guard hands on (pgjdbc would split "x; -- c" itself)
    dev.sonde.db.guard.SqlLexer.Scan scan =
        dev.sonde.db.guard.SqlLexer.scan(written, dev.sonde.db.guard.LexerRules.POSTGRES);
    String text =
        scan.problem() == null && scan.statements().size() == 1
            ? scan.statements().get(0)
            : written;
    try (Connection db = DriverManager.getConnection(url)) {
      db.setAutoCommit(false);
      try (Statement st = db.createStatement()) {
        st.execute("SET TRANSACTION READ ONLY");
        try (ResultSet rs = st.executeQuery(text)) {
          ResultSetMetaData md = rs.getMetaData();
          List<String> columns = new ArrayList<>();
          for (int i = 1; i <= md.getColumnCount(); i++) {
            // Sonde's answers write the temp folder as <temp>
            columns.add(md.getColumnLabel(i).replace("/tmp", "<temp>"));
          }
          List<List<String>> rows = new ArrayList<>();
          while (rs.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
              String v = rs.getString(i);
              row.add(v == null ? null : v.replace("/tmp", "<temp>"));
            }
            rows.add(row);
          }
          return new Result(columns, rows, null);
        }
      } catch (SQLException e) {
        return new Result(List.of(), List.of(), e.getSQLState());
      } finally {
        db.rollback();
      }
    }
  }

  /** Settings and state of the connection's session, read through Sonde. */
  static Map<String, String> session(String connection) {
    String probe =
        "SELECT current_setting('statement_timeout') AS a,"
            + " current_setting('default_transaction_read_only') AS b,"
            + " current_setting('search_path') AS c, current_setting('work_mem') AS d,"
            + " current_setting('standard_conforming_strings') AS e,"
            + " (SELECT count(*) FROM pg_class WHERE relpersistence = 't')::int AS f,"
            + " (SELECT count(*) FROM pg_listening_channels())::int AS g";
    JsonObject answer = tools.ok("execute_query", sql(connection, probe));
    JsonArray row = answer.getJsonArray("rows").getJsonArray(0);
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < row.size(); i++) {
      out.put(
          answer.getJsonArray("columns").getJsonObject(i).getString("name"),
          String.valueOf(row.getValue(i)));
    }
    assertNotEquals("0", out.get("a"));
    assertEquals("on", out.get("b"));
    return out;
  }

  /** Locks held by other sessions of this database (Sonde's, idle between calls). */
  static long lingeringLocks() throws SQLException {
    return adminCount(
        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            + " WHERE a.datname = 'shapes' AND l.pid <> pg_backend_pid()"
            + " AND (l.relation IS NOT NULL OR l.locktype IN ('advisory', 'tuple'))");
  }

  static long adminCount(String query) throws SQLException {
    try (Connection db = DriverManager.getConnection(url);
        Statement st = db.createStatement();
        ResultSet rs = st.executeQuery(query)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** {@code name} made afresh with these columns and one row. */
  private static void table(String name, String columns, String row) throws SQLException {
    admin("DROP TABLE IF EXISTS " + name);
    admin("CREATE TABLE " + name + " (" + columns + ")");
    admin("INSERT INTO " + name + " VALUES (" + row + ")");
  }

  static void admin(String statement) throws SQLException {
    try (Connection db = DriverManager.getConnection(url);
        Statement st = db.createStatement()) {
      st.execute(statement);
    }
  }

  static JsonObject sql(String connection, String sql) {
    return new JsonObject().put("connection", connection).put("sql", sql);
  }

  static Object value(JsonObject answer) {
    return answer.getJsonArray("rows").getJsonArray(0).getValue(0);
  }

  /** The answer's columns and first row, as {@code name:type=value} each. */
  static String shown(String connection, String read) {
    return Answers.firstRow(tools.ok("execute_query", sql(connection, read)));
  }

  static String answerOrError(String connection, String read) {
    return answerOrErrorWith(tools, connection, read);
  }

  static String answerOrErrorWith(ToolCalls calls, String connection, String read) {
    JsonObject result = calls.call("execute_query", sql(connection, read));
    if (result.getBoolean("isError", false)) {
      return "error: " + result.getJsonArray("content").getJsonObject(0).getString("text");
    }
    return Answers.firstRow(result.getJsonObject("structuredContent"));
  }
}
