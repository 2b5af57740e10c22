package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.TestPostgres;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 17, "the read-only guard holds against an attacker", proved by effects: every attack goes
 * through the real MCP tool call (execute_query, explain_query with and without analyze) on every
 * connection type it applies to, and then a separate superuser JDBC connection (or the file system)
 * checks that nothing changed: rows, sequences, large objects, replication slots,
 * postgresql.auto.conf, statistics resets, other backends, advisory locks, files, WAL, the loaded
 * configuration, the pooled connections' settings; on DuckDB the catalog, the settings and the
 * files. An answer is never trusted alone: an escape can come back as an error.
 *
 * <p>Data-driven: {@link #postgresAttacks} and {@link #duckDbAttacks} are lists of attack texts;
 * each runs through every tool on every connection of its engine. Placeholders in the texts: {@code
 * {secret}} (a file whose content must never reach an answer), {@code {dir}} (the marker folder,
 * where nothing may appear), {@code {marker}} (a file in it), {@code {sentinel}} (the pid of an
 * unrelated backend that must stay alive), {@code {url}} (a libpq URL of the database).
 *
 * <p>The connections: {@code pg} (type postgres, reactive reads, JDBC explain), {@code jdbcpg}
 * (type jdbc), their {@code guard: engine-only} twins, and DuckDB files {@code duck} and {@code
 * duckengine}. Pools have one connection each so that a poisoned session is the one probed.
 *
 * <p>{@link #positiveControls} are about false refusals: benign queries that must still answer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GuardEffectsTest {
  enum Tool {
    EXECUTE("execute_query", null),
    EXPLAIN("explain_query", false),
    EXPLAIN_ANALYZE("explain_query", true);

    final String name;
    final Boolean analyze;

    Tool(String name, Boolean analyze) {
      this.name = name;
      this.analyze = analyze;
    }

    JsonObject args(String connection, String sql) {
      JsonObject args = new JsonObject().put("connection", connection).put("sql", sql);
      return analyze == null ? args : args.put("analyze", analyze);
    }
  }

  /**
   * One attack: its name (for the report), its SQL, and whether an answer is itself a failure (for
   * calls whose effect cannot be observed from here: server log writes, directory listings).
   */
  record Attack(String name, String sql, String mustRefuseBecause) {
    static Attack of(String name, String sql) {
      return new Attack(name, sql, null);
    }

    static Attack refused(String name, String sql, String why) {
      return new Attack(name, sql, why);
    }
  }

  static final List<String> PG_CONNECTIONS = List.of("pg", "jdbcpg", "pgengine", "jdbcpgengine");
  static final List<String> DUCK_CONNECTIONS = List.of("duck", "duckengine");
  static final int TIMEOUT_SECONDS = 4;

  static final String SECRET = "S3CR3T" + UUID.randomUUID().toString().replace("-", "");
  static final String LISTED = "L1ST3D" + UUID.randomUUID().toString().replace("-", "");

  TestPostgres postgres;
  String url;
  Path folder;
  Path markerDir;
  Path secretFile;
  Map<String, Path> duckFiles = new LinkedHashMap<>();
  InProcessSonde sonde;
  Map<String, String> sondeConfig;
  HttpMcpClient client;
  ToolCalls calls;
  Connection admin;
  Connection sentinel;
  int sentinelPid;
  Map<String, Connection> duckAdmins = new LinkedHashMap<>();
  Map<String, String> pgBaseline;
  Map<String, String> duckBaseline;

  /** What each PostgreSQL session must keep, read through Sonde after every attack. */
  static final Map<String, String> SESSION_PROBES = new LinkedHashMap<>();

  static {
    SESSION_PROBES.put("statement_timeout", "current_setting('statement_timeout')");
    SESSION_PROBES.put(
        "default_transaction_read_only", "current_setting('default_transaction_read_only')");
    SESSION_PROBES.put("transaction_read_only", "current_setting('transaction_read_only')");
    SESSION_PROBES.put(
        "standard_conforming_strings", "current_setting('standard_conforming_strings')");
    SESSION_PROBES.put("search_path", "current_setting('search_path')");
    SESSION_PROBES.put("lock_timeout", "current_setting('lock_timeout')");
    SESSION_PROBES.put("work_mem", "current_setting('work_mem')");
    SESSION_PROBES.put("session_replication_role", "current_setting('session_replication_role')");
    SESSION_PROBES.put("role", "current_setting('role')");
    SESSION_PROBES.put("current_user", "current_user::text");
    SESSION_PROBES.put("session_user", "session_user::text");
    SESSION_PROBES.put("listening", "(SELECT count(*) FROM pg_listening_channels())::text");
    SESSION_PROBES.put(
        "sql_prepared", "(SELECT count(*) FROM pg_prepared_statements WHERE from_sql)::text");
    // a protocol portal is a cursor too, and how many a read uses depends on its path: only one
    // that outlives the transaction (DECLARE ... WITH HOLD) is an effect
    SESSION_PROBES.put("cursors", "(SELECT count(*) FROM pg_cursors WHERE is_holdable)::text");
    SESSION_PROBES.put(
        "own_advisory_locks",
        "(SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid())::text");
  }

  /** The session values each connection's reads must see, per path (execute, explain). */
  Map<String, Map<String, String>> sessionBaseline = new TreeMap<>();

  /** One line per attack run, for the report: outcome and effects (also in REPORT as it goes). */
  final List<String> report =
      java.util.Collections.synchronizedList(
          new ArrayList<>() {
            @Override
            public boolean add(String line) {
              try {
                Files.createDirectories(REPORT.getParent());
                Files.writeString(
                    REPORT,
                    line + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
              return super.add(line);
            }
          });

  static final Path REPORT = Path.of("target", "guard-effects-report.tsv");

  // ------------------------------------------------------------------ the attacks

  static List<Attack> postgresAttacks() {
    List<Attack> a = new ArrayList<>();
    // 1. Unicode-escaped identifiers: the guard's lexer sees "pg_read_fil\0065", PostgreSQL calls
    // pg_read_file
    a.add(Attack.of("uescape pg_read_file", "SELECT U&\"pg_read_fil\\0065\"('{secret}') AS f"));
    a.add(
        Attack.of(
            "uescape pg_read_file as cast error",
            "SELECT U&\"pg_read_fil\\0065\"('{secret}')::int AS f"));
    a.add(
        Attack.of(
            "uescape pg_read_file UESCAPE '!'",
            "SELECT U&\"pg_read_fil!0065\" UESCAPE '!'('{secret}') AS f"));
    a.add(
        Attack.of(
            "uescape pg_read_file qualified",
            "SELECT pg_catalog.U&\"pg_read_fil\\0065\"('{secret}') AS f"));
    a.add(
        Attack.of(
            "uescape pg_read_file first letter",
            "SELECT U&\"\\0070g_read_file\"('{secret}') AS f"));
    a.add(
        Attack.of(
            "uescape pg_read_file 6-digit escape",
            "SELECT U&\"pg_read_fil\\+000065\"('{secret}') AS f"));
    a.add(
        Attack.of(
            "uescape pg_read_file in FROM",
            "SELECT * FROM U&\"pg_read_fil\\0065\"('{secret}') AS t(f)"));
    a.add(
        Attack.of(
            "uescape pg_read_file in FROM UESCAPE",
            "SELECT * FROM U&\"pg_read_fil#0065\" UESCAPE '#'('{secret}') AS t(f)"));
    a.add(
        Attack.of(
            "uescape pg_read_binary_file",
            "SELECT encode(U&\"pg_read_binary_fil\\0065\"('{secret}'), 'escape') AS f"));
    a.add(Attack.of("uescape pg_ls_dir", "SELECT * FROM U&\"pg_ls_di\\0072\"('{dir}') AS t(f)"));
    a.add(
        Attack.of("uescape pg_ls_dir in select list", "SELECT U&\"pg_ls_di\\0072\"('{dir}') AS f"));
    a.add(
        Attack.of(
            "uescape pg_terminate_backend",
            "SELECT U&\"pg_terminate_backen\\0064\"({sentinel}) AS killed"));
    a.add(
        Attack.of(
            "uescape pg_terminate_backend UESCAPE",
            "SELECT U&\"pg_terminate_backen!0064\" UESCAPE '!'({sentinel}) AS killed"));
    a.add(
        Attack.of(
            "uescape pg_cancel_backend", "SELECT U&\"pg_cancel_backen\\0064\"({sentinel}) AS c"));
    a.add(Attack.of("uescape pg_advisory_lock", "SELECT U&\"pg_advisory_loc\\006B\"(42) AS l"));
    a.add(
        Attack.of(
            "uescape pg_advisory_lock UESCAPE",
            "SELECT U&\"pg_advisory_loc!006B\" UESCAPE '!'(42) AS l"));
    a.add(
        Attack.of(
            "uescape pg_try_advisory_lock_shared",
            "SELECT U&\"pg_try_advisory_lock_share\\0064\"(7, 8) AS l"));
    a.add(Attack.of("uescape pg_reload_conf", "SELECT U&\"pg_reload_con\\0066\"() AS r"));
    a.add(Attack.of("uescape pg_switch_wal", "SELECT U&\"pg_switch_wa\\006C\"() AS w"));
    a.add(
        Attack.of(
            "uescape query_to_xml reading a file",
            "SELECT U&\"query_to_xm\\006C\"('select pg_read_file(''{secret}'') AS f', true, true, '') AS x"));
    a.add(
        Attack.of(
            "uescape query_to_xml taking an advisory lock",
            "SELECT U&\"query_to_xm\\006C\"('select pg_advisory_lock(42)', true, true, '') AS x"));
    a.add(
        Attack.of(
            "uescape query_to_xml in FROM",
            "SELECT * FROM U&\"query_to_xm\\006C\"('select pg_read_file(''{secret}'') AS f', true, true, '') AS t(x)"));
    a.add(
        Attack.of(
            "uescape lo_export writes a server file",
            "SELECT U&\"lo_expor\\0074\"((SELECT min(oid) FROM pg_largeobject_metadata), '{marker}') AS e"));
    a.add(
        Attack.of(
            "uescape lo_import reads a server file",
            "SELECT U&\"lo_impor\\0074\"('{secret}') AS i"));
    a.add(
        Attack.of("uescape lo_from_bytea", "SELECT U&\"lo_from_byte\\0061\"(0, 'x'::bytea) AS lo"));
    a.add(
        Attack.of(
            "uescape set_config then read",
            "SELECT U&\"set_confi\\0067\"('statement_timeout', '0', false) AS s"));
    a.add(
        Attack.of(
            "uescape pg_create_restore_point",
            "SELECT U&\"pg_create_restore_poin\\0074\"('pwn') AS p"));
    a.add(Attack.of("uescape nextval", "SELECT U&\"nextva\\006C\"('canary_seq') AS n"));
    a.add(Attack.of("uescape setval", "SELECT U&\"setva\\006C\"('canary_seq', 999) AS n"));
    a.add(Attack.of("uescape pg_sleep", "SELECT U&\"pg_slee\\0070\"(0.01) AS s"));
    a.add(
        Attack.of(
            "uescape dblink_exec (when the extension exists)",
            "SELECT U&\"dblink_exe\\0063\"('{url}', 'INSERT INTO canary VALUES (666)') AS d"));
    a.add(
        Attack.of(
            "uescape dblink (when the extension exists)",
            "SELECT * FROM U&\"dblin\\006B\"('{url}', 'INSERT INTO canary VALUES (667) RETURNING 1') AS t(x int)"));
    // 2. '--' ended by CR: the guard reads the rest of the line as a comment, PostgreSQL does not
    a.add(
        Attack.of(
            "CR ends a comment: pg_read_file",
            "SELECT 1 AS a --x\r, pg_read_file('{secret}') AS f"));
    a.add(
        Attack.of(
            "CR ends a comment: pg_advisory_lock",
            "SELECT 1 AS a --x\r, pg_advisory_lock(42) AS l"));
    a.add(
        Attack.of(
            "CR ends a comment: pg_terminate_backend",
            "SELECT 1 AS a --x\r, pg_terminate_backend({sentinel}) AS k"));
    a.add(
        Attack.of(
            "CR ends a comment: FROM pg_ls_dir", "SELECT f --x\r FROM pg_ls_dir('{dir}') AS t(f)"));
    // 3. CR hiding a ';'
    a.add(
        Attack.of(
            "CR hides ';': COPY TO PROGRAM",
            "SELECT 1 --x\r; COPY (SELECT 1) TO PROGRAM 'touch {marker}'"));
    a.add(
        Attack.of(
            "CR hides ';': COMMIT; INSERT",
            "SELECT 1 --x\r; COMMIT; INSERT INTO canary VALUES (666)"));
    a.add(
        Attack.of(
            "CR hides ';': COMMIT; INSERT; SELECT",
            "SELECT 1 --x\r; COMMIT; INSERT INTO canary VALUES (668); SELECT 1"));
    a.add(
        Attack.of(
            "CR hides ';': COMMIT; SET statement_timeout",
            "SELECT 1 --x\r; COMMIT; SET statement_timeout = 0"));
    a.add(
        Attack.of(
            "CR hides ';': COMMIT; SET default_transaction_read_only",
            "SELECT 1 --x\r; COMMIT; SET default_transaction_read_only = off; SELECT 1"));
    a.add(
        Attack.of(
            "CR hides ';': COMMIT; SET standard_conforming_strings",
            "SELECT 1 --x\r; COMMIT; SET standard_conforming_strings = off; SELECT 1"));
    a.add(
        Attack.of(
            "CR hides ';': COPY TO file", "SELECT 1 --x\r; COPY canary TO '{marker}'; SELECT 1"));
    a.add(
        Attack.of(
            "CR hides ';': advisory lock in a later statement",
            "SELECT 1 --x\r; SELECT pg_advisory_lock(42)"));
    a.add(
        Attack.of(
            "CR hides ';': ALTER SYSTEM",
            "SELECT 1 --x\r; COMMIT; ALTER SYSTEM SET work_mem = '77MB'; SELECT 1"));
    a.add(
        Attack.of(
            "CR hides ';': DO block",
            "SELECT 1 --x\r; COMMIT; DO $$BEGIN INSERT INTO canary VALUES (669); END$$; SELECT 1"));
    a.add(
        Attack.of(
            "CR hides ';': LISTEN after COMMIT", "SELECT 1 --x\r; COMMIT; LISTEN pwn; SELECT 1"));
    a.add(
        Attack.of(
            "CR hides ';': PREPARE", "SELECT 1 --x\r; PREPARE pwn_plan AS SELECT 1; SELECT 1"));
    a.add(
        Attack.of(
            "CR hides ';': CREATE ROLE",
            "SELECT 1 --x\r; COMMIT; CREATE ROLE pwn_role SUPERUSER; SELECT 1"));
    a.add(
        Attack.of(
            "CR CR LF variants: CRLF is a newline, lone CR after",
            "SELECT 1 --x\r\n, 2 AS b --y\r; COMMIT; INSERT INTO canary VALUES (670)"));
    // 5. functions no denylist had
    a.add(
        Attack.of(
            "ts_stat runs a query given as text (file read)",
            "SELECT word FROM ts_stat('SELECT to_tsvector(''simple'', pg_read_file(''{secret}''))')"));
    a.add(
        Attack.of(
            "ts_stat runs a query given as text (advisory lock)",
            "SELECT * FROM ts_stat('SELECT to_tsvector(''simple'', pg_advisory_lock(42)::text)')"));
    a.add(
        Attack.of(
            "ts_stat runs a query given as text (terminate)",
            "SELECT * FROM ts_stat('SELECT to_tsvector(''simple'', pg_terminate_backend({sentinel})::text)')"));
    a.add(
        Attack.of(
            "ts_rewrite runs a query given as text",
            "SELECT ts_rewrite('a & b'::tsquery, 'SELECT to_tsquery(''simple'', ''a''), to_tsquery(''simple'', regexp_replace(pg_read_file(''{secret}''), ''\\W'', '''', ''g''))')"));
    a.add(
        Attack.of(
            "ts_rewrite with an advisory lock",
            "SELECT ts_rewrite('a & b'::tsquery, 'SELECT ''a''::tsquery, (pg_advisory_lock(42)::text || ''x'')::tsquery')"));
    a.add(
        Attack.of(
            "pg_create_physical_replication_slot",
            "SELECT * FROM pg_create_physical_replication_slot('pwn_slot')"));
    a.add(
        Attack.of(
            "pg_create_physical_replication_slot reserving WAL",
            "SELECT pg_create_physical_replication_slot('pwn_slot2', true)"));
    a.add(
        Attack.of(
            "pg_create_logical_replication_slot",
            "SELECT * FROM pg_create_logical_replication_slot('pwn_logical', 'test_decoding')"));
    a.add(
        Attack.of(
            "pg_copy_physical_replication_slot",
            "SELECT * FROM pg_copy_physical_replication_slot('keep_slot', 'pwn_copy')"));
    a.add(Attack.of("pg_drop_replication_slot", "SELECT pg_drop_replication_slot('keep_slot')"));
    a.add(Attack.of("pg_stat_reset", "SELECT pg_stat_reset()"));
    a.add(Attack.of("pg_stat_reset_shared bgwriter", "SELECT pg_stat_reset_shared('bgwriter')"));
    a.add(Attack.of("pg_stat_reset_shared archiver", "SELECT pg_stat_reset_shared('archiver')"));
    a.add(Attack.of("pg_stat_reset_shared wal", "SELECT pg_stat_reset_shared('wal')"));
    a.add(Attack.of("pg_stat_reset_slru", "SELECT pg_stat_reset_slru(NULL)"));
    a.add(
        Attack.of(
            "pg_stat_reset_single_table_counters",
            "SELECT pg_stat_reset_single_table_counters('canary'::regclass)"));
    a.add(
        Attack.of("pg_stat_reset_replication_slot", "SELECT pg_stat_reset_replication_slot(NULL)"));
    a.add(
        Attack.refused(
            "pg_log_backend_memory_contexts",
            "SELECT pg_log_backend_memory_contexts(pg_backend_pid())",
            "it writes to the server log"));
    a.add(
        Attack.refused(
            "pg_ls_logicalsnapdir",
            "SELECT * FROM pg_ls_logicalsnapdir()",
            "it lists a server directory"));
    a.add(
        Attack.refused(
            "pg_ls_logicalmapdir",
            "SELECT * FROM pg_ls_logicalmapdir()",
            "it lists a server directory"));
    a.add(
        Attack.refused(
            "pg_ls_replslotdir",
            "SELECT * FROM pg_ls_replslotdir('keep_slot')",
            "it lists a server directory"));
    a.add(
        Attack.of(
            "pg_start_backup (exclusive, PostgreSQL 14)",
            "SELECT pg_start_backup('pwn', true)::text AS b"));
    a.add(
        Attack.of(
            "pg_replication_origin_create", "SELECT pg_replication_origin_create('pwn_origin')"));
    a.add(
        Attack.of(
            "pg_import_system_collations",
            "SELECT pg_import_system_collations('public'::regnamespace)"));
    a.add(Attack.of("lo_creat (old name)", "SELECT lo_creat(-1)"));
    a.add(
        Attack.of(
            "lo_open + lowrite",
            "SELECT lowrite(lo_open((SELECT min(oid) FROM pg_largeobject_metadata), 131072), 'pwn')"));
    a.add(
        Attack.of(
            "lo_truncate",
            "SELECT lo_truncate(lo_open((SELECT min(oid) FROM pg_largeobject_metadata), 131072), 0)"));
    a.add(
        Attack.of(
            "pg_export_snapshot", "SELECT pg_export_snapshot() AS s FROM canary WHERE id = 1"));
    a.add(
        Attack.of(
            "xml external entity reads a file",
            "SELECT xmlparse(document '<!DOCTYPE x [<!ENTITY e SYSTEM \"file://{secret}\">]><x>&e;</x>')::text AS x"));
    a.add(
        Attack.of(
            "xpath with an external entity",
            "SELECT xpath('/x/text()', '<!DOCTYPE x [<!ENTITY e SYSTEM \"file://{secret}\">]><x>&e;</x>'::xml)::text AS x"));
    // 6. denylisted spellings the lexer must still see
    a.add(Attack.of("quoted pg_read_file", "SELECT \"pg_read_file\"('{secret}') AS f"));
    a.add(
        Attack.of(
            "pg_read_file with a comment before the paren",
            "SELECT pg_read_file/* x */('{secret}') AS f"));
    a.add(
        Attack.of(
            "pg_read_file with a newline before the paren",
            "SELECT pg_catalog\n.\npg_read_file\n('{secret}') AS f"));
    a.add(
        Attack.of(
            "pg_read_file in ROWS FROM",
            "SELECT * FROM ROWS FROM (pg_read_file('{secret}')) t(f)"));
    a.add(
        Attack.of(
            "pg_read_file with named arguments",
            "SELECT pg_read_file(filename => '{secret}') AS f"));
    a.add(Attack.of("pg_read_binary_file", "SELECT pg_read_binary_file('{secret}') AS f"));
    a.add(
        Attack.of(
            "query_to_xml_and_xmlschema",
            "SELECT query_to_xml_and_xmlschema('select pg_read_file(''{secret}'')', true, true, '')"));
    a.add(
        Attack.of("cursor_to_xml", "SELECT cursor_to_xml('c'::refcursor, 1, true, true, '') AS x"));
    a.add(Attack.of("set_config", "SELECT set_config('statement_timeout', '0', false)"));
    a.add(Attack.of("pg_notify", "SELECT pg_notify('pwn', 'x')"));
    a.add(Attack.of("table_to_xml reads a table", "SELECT table_to_xml('canary', true, true, '')"));
    a.add(
        Attack.of(
            "database_to_xml reads every table",
            "SELECT length(database_to_xml(true, true, '')::text) AS n"));
    // statements that are not reads
    a.add(Attack.of("COPY TO PROGRAM", "COPY (SELECT 1) TO PROGRAM 'touch {marker}'"));
    a.add(Attack.of("COPY TO file", "COPY canary TO '{marker}'"));
    a.add(Attack.of("COPY FROM PROGRAM", "COPY canary FROM PROGRAM 'echo 671'"));
    a.add(Attack.of("DO advisory lock", "DO $$BEGIN PERFORM pg_advisory_lock(42); END$$"));
    a.add(
        Attack.of(
            "DO with dynamic SQL",
            "DO $$BEGIN EXECUTE 'SELECT pg_' || 'advisory_lock(42)'; END$$"));
    a.add(
        Attack.of(
            "DO with COPY TO PROGRAM",
            "DO $x$BEGIN EXECUTE 'COPY (SELECT 1) TO PROGRAM ''touch {marker}'''; END$x$"));
    a.add(Attack.of("CALL", "CALL pwn_proc()"));
    a.add(Attack.of("PREPARE", "PREPARE pwn_plan AS SELECT 1"));
    a.add(Attack.of("LISTEN", "LISTEN pwn"));
    a.add(Attack.of("DECLARE WITH HOLD", "DECLARE pwn_cursor CURSOR WITH HOLD FOR SELECT 1"));
    a.add(Attack.of("SET statement_timeout", "SET statement_timeout = 0"));
    a.add(
        Attack.of("SET default_transaction_read_only", "SET default_transaction_read_only = off"));
    a.add(Attack.of("SET SESSION AUTHORIZATION", "SET SESSION AUTHORIZATION DEFAULT"));
    a.add(Attack.of("RESET ALL", "RESET ALL"));
    a.add(Attack.of("DISCARD ALL", "DISCARD ALL"));
    a.add(Attack.of("COMMIT then nothing", "COMMIT"));
    a.add(Attack.of("ALTER SYSTEM", "ALTER SYSTEM SET work_mem = '77MB'"));
    a.add(Attack.of("CHECKPOINT", "CHECKPOINT"));
    a.add(Attack.of("LOCK TABLE", "LOCK TABLE canary IN ACCESS EXCLUSIVE MODE"));
    a.add(
        Attack.of(
            "data-modifying CTE",
            "WITH x AS (INSERT INTO canary VALUES (672) RETURNING id) SELECT * FROM x"));
    a.add(Attack.of("SELECT FOR UPDATE", "SELECT * FROM canary FOR UPDATE"));
    a.add(Attack.of("SELECT INTO", "SELECT * INTO pwn_table FROM canary"));
    a.add(Attack.of("CREATE TABLE AS", "CREATE TABLE pwn_table AS SELECT 1 AS x"));
    a.add(Attack.of("INSERT", "INSERT INTO canary VALUES (673)"));
    a.add(Attack.of("two statements", "SELECT 1; INSERT INTO canary VALUES (674)"));
    // lexical tricks
    a.add(
        Attack.of(
            "E-string with backslash-quote",
            "SELECT E'\\'; INSERT INTO canary VALUES (675); --' AS x"));
    a.add(
        Attack.of(
            "standard string with backslash (not an escape)",
            "SELECT '\\' AS a, pg_read_file('{secret}') AS f --'"));
    a.add(
        Attack.of(
            "dollar quote with an odd tag",
            "SELECT $a_1$ $$ ; $a_1$ AS x, pg_read_file('{secret}') AS f"));
    a.add(
        Attack.of(
            "dollar quote opened inside a comment",
            "SELECT 1 /* $$ */, pg_read_file('{secret}') AS f -- $$"));
    a.add(
        Attack.of(
            "nested comments", "SELECT 1 /* /* */ , pg_read_file('{secret}') AS f /* */ */ AS a"));
    a.add(
        Attack.of(
            "nested comment closed once hides code from a flat lexer",
            "SELECT 1 /* /* */ */ , pg_read_file('{secret}') AS f"));
    a.add(
        Attack.of(
            "U& string with UESCAPE quote trick",
            "SELECT U&'!0027' UESCAPE '!' AS a, pg_read_file('{secret}') AS f"));
    a.add(Attack.of("NUL byte", "SELECT 1 AS a \u0000; INSERT INTO canary VALUES (676)"));
    a.add(
        Attack.of(
            "vertical tab and form feed",
            "SELECT 1 AS a\u000b\u000c--x\r, pg_read_file('{secret}') AS f"));
    a.add(
        Attack.of(
            "non-ASCII letter glued to a function name",
            "SELECT xé pg_read_file('{secret}') AS f"));
    a.add(
        Attack.of(
            "non-letter non-ASCII before E'",
            "SELECT 1 AS x€E'\\', pg_read_file('{secret}') AS f --'"));
    a.add(
        Attack.of(
            "digits before E' (PostgreSQL 14 reads 1E'..' as 1 then an E-string)",
            "SELECT 1E'\\' ' AS x, pg_read_file('{secret}') AS f, ' '"));
    a.add(
        Attack.of(
            "very long input",
            "SELECT 1 AS a" + " ".repeat(70_000) + ", pg_read_file('{secret}') AS f"));
    a.add(
        Attack.of(
            "long comment then CR",
            "SELECT 1 AS a --" + "x".repeat(5000) + "\r, pg_read_file('{secret}') AS f"));
    return a;
  }

  static List<Attack> duckDbAttacks() {
    List<Attack> a = new ArrayList<>();
    // 4. PIVOT: a dynamic PIVOT is several statements to DuckDB, so the strict guard refuses it
    // (its IN-list form is a positive control); engine-only leaves it to the lexer, which now
    // ends a comment where DuckDB does
    a.add(
        Attack.of(
            "PIVOT CR hides ';': CREATE TABLE",
            "PIVOT orders ON channel USING count(*) --x\r; COMMIT; CREATE TABLE sonde_pwn AS SELECT 42 AS x; SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT CR hides ';': SET memory_limit",
            "PIVOT orders ON channel USING count(*) --x\r; COMMIT; SET memory_limit = '1GB'; SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT CR hides ';': SET threads",
            "PIVOT orders ON channel USING count(*) --x\r; COMMIT; SET threads = 1; SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT CR hides ';': SET GLOBAL without COMMIT",
            "PIVOT orders ON channel USING count(*) --x\r; SET GLOBAL threads = 1; SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT CR hides ';': ATTACH",
            "PIVOT orders ON channel USING count(*) --x\r; ATTACH ':memory:' AS pwn_db; SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT CR hides ';': INSERT",
            "PIVOT orders ON channel USING count(*) --x\r; COMMIT; INSERT INTO canary VALUES (666); SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT CR hides ';': CREATE MACRO",
            "PIVOT orders ON channel USING count(*) --x\r; COMMIT; CREATE MACRO pwn_macro(x) AS x; SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT CR hides ';': CREATE SEQUENCE and VIEW",
            "PIVOT orders ON channel USING count(*) --x\r; COMMIT; CREATE SEQUENCE pwn_seq; CREATE VIEW pwn_view AS SELECT 1; SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT CR hides ';': CREATE TYPE",
            "PIVOT orders ON channel USING count(*) --x\r; COMMIT; CREATE TYPE pwn_type AS ENUM ('a'); SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT CR hides ';': nextval",
            "PIVOT orders ON channel USING count(*) --x\r; COMMIT; SELECT nextval('canary_seq')"));
    a.add(
        Attack.of(
            "PIVOT with a subquery source and CR",
            "PIVOT (SELECT * FROM orders) ON channel USING count(*) --x\r; COMMIT; CREATE TABLE sonde_pwn2 AS SELECT 1 AS x; SELECT 1"));
    a.add(
        Attack.of(
            "PIVOT: the USING clause is not walked",
            "PIVOT orders ON channel USING max((SELECT count(*) FROM duckdb_secrets()))"));
    a.add(
        Attack.of(
            "PIVOT: GROUP BY with a table function",
            "PIVOT orders ON channel USING count(*) GROUP BY (SELECT count(*) FROM enable_logging())"));
    a.add(
        Attack.of(
            "CR hides ';' in a plain SELECT",
            "SELECT 1 --x\r; COMMIT; CREATE TABLE sonde_pwn3 AS SELECT 1 AS x; SELECT 1"));
    // state-changing table functions a SELECT can call
    a.add(Attack.of("enable_logging", "SELECT * FROM enable_logging()"));
    // enable_logging(storage = 'file', ...) aborts the whole JVM: see GuardCrashTest
    a.add(Attack.of("truncate_duckdb_logs", "SELECT * FROM truncate_duckdb_logs()"));
    a.add(Attack.of("enable_profiling", "SELECT * FROM enable_profiling()"));
    a.add(Attack.of("checkpoint()", "SELECT * FROM checkpoint()"));
    a.add(Attack.of("force_checkpoint()", "SELECT * FROM force_checkpoint()"));
    a.add(
        Attack.of("json_execute_serialized_sql", "SELECT * FROM json_execute_serialized_sql('x')"));
    a.add(Attack.of("read_duckdb", "SELECT * FROM read_duckdb('{secret}')"));
    a.add(Attack.of("read_text", "SELECT * FROM read_text('{secret}')"));
    a.add(Attack.of("read_text quoted upper case", "SELECT * FROM \"READ_TEXT\"('{secret}')"));
    a.add(Attack.of("read_csv", "SELECT * FROM read_csv('{secret}', header = false)"));
    a.add(Attack.of("file as table", "SELECT * FROM '{secret}'"));
    a.add(Attack.of("query()", "SELECT * FROM query('CREATE TABLE sonde_pwn4 AS SELECT 1')"));
    a.add(Attack.of("query_table()", "SELECT * FROM query_table('orders')"));
    a.add(Attack.of("getenv", "SELECT getenv('HOME') AS h"));
    a.add(Attack.of("nextval", "SELECT nextval('canary_seq') AS n"));
    a.add(Attack.of("duckdb_secrets", "SELECT * FROM duckdb_secrets()"));
    // statements that are not reads
    a.add(Attack.of("COPY TO", "COPY orders TO '{marker}'"));
    a.add(Attack.of("COPY query TO", "COPY (SELECT 1) TO '{marker}' (FORMAT csv)"));
    a.add(Attack.of("EXPORT DATABASE", "EXPORT DATABASE '{dir}/export'"));
    a.add(Attack.of("ATTACH memory", "ATTACH ':memory:' AS pwn_db"));
    a.add(Attack.of("ATTACH file", "ATTACH '{marker}' AS pwn_file"));
    a.add(Attack.of("INSTALL", "INSTALL httpfs"));
    a.add(Attack.of("LOAD", "LOAD httpfs"));
    a.add(Attack.of("SET memory_limit", "SET memory_limit = '1GB'"));
    a.add(Attack.of("SET GLOBAL threads", "SET GLOBAL threads = 1"));
    a.add(Attack.of("RESET threads", "RESET threads"));
    a.add(Attack.of("PRAGMA threads", "PRAGMA threads = 1"));
    a.add(Attack.of("SET enable_external_access", "SET enable_external_access = true"));
    a.add(Attack.of("CALL enable_logging", "CALL enable_logging()"));
    a.add(Attack.of("CALL checkpoint", "CALL force_checkpoint()"));
    a.add(Attack.of("CHECKPOINT", "CHECKPOINT"));
    a.add(Attack.of("CREATE MACRO", "CREATE MACRO pwn_macro(x) AS x"));
    a.add(Attack.of("CREATE TABLE", "CREATE TABLE sonde_pwn AS SELECT 42 AS x"));
    a.add(Attack.of("CREATE SECRET", "CREATE SECRET pwn_secret (TYPE http, BEARER_TOKEN 'x')"));
    a.add(Attack.of("INSERT", "INSERT INTO canary VALUES (666)"));
    a.add(Attack.of("DELETE", "DELETE FROM canary"));
    a.add(Attack.of("COMMIT then INSERT", "COMMIT; INSERT INTO canary VALUES (666)"));
    a.add(Attack.of("VACUUM", "VACUUM"));
    a.add(Attack.of("ANALYZE", "ANALYZE"));
    a.add(Attack.of("DETACH", "DETACH pwn_db"));
    return a;
  }

  /** Benign queries that must still answer: these are about false refusals, not escapes. */
  static List<Attack> pgControls() {
    return List.of(
        Attack.of("jsonb ? operator", "SELECT '{\"a\":1}'::jsonb ? 'a' AS has"),
        Attack.of("dollar quote with a euro tag", "SELECT $€$;$€$ AS x"),
        Attack.of("dollar quote with a ';'", "SELECT $t$;$t$ AS x"),
        Attack.of("comment ended by CRLF", "SELECT 1 AS a -- note\r\n, 2 AS b"),
        Attack.of(
            "strings that look like code", "SELECT 'a--b' AS a, '/*x*/' AS b, E'it\\'s' AS c"),
        Attack.of("U& string literal", "SELECT U&'\\0041' AS a"),
        Attack.of("nested comment", "SELECT count(*) /* a /* b */ c */ FROM canary"),
        Attack.of("read the canary", "SELECT id FROM canary ORDER BY id"),
        Attack.of("jsonb path", "SELECT jsonb_path_query('{\"a\":1}', '$.a') AS v"));
  }

  static List<Attack> duckControls() {
    return List.of(
        Attack.of("dollar quote with a euro tag", "SELECT $€$;$€$ AS x"),
        Attack.of("static PIVOT", "PIVOT orders ON channel IN ('web', 'store') USING sum(n)"),
        Attack.of("FROM first", "FROM orders SELECT channel"),
        Attack.of("list and struct", "SELECT [1, 2, 3][1] AS a, {'a': 1} AS b"),
        Attack.of("SUMMARIZE", "SUMMARIZE orders"),
        Attack.of("comment ended by CRLF", "SELECT 1 AS a -- note\r\n, 2 AS b"));
  }

  // ------------------------------------------------------------------ the suite

  @TestFactory
  Stream<DynamicNode> postgresAttacksHaveNoEffect() {
    return attacks(postgresAttacks(), PG_CONNECTIONS);
  }

  @TestFactory
  Stream<DynamicNode> duckDbAttacksHaveNoEffect() {
    return attacks(duckDbAttacks(), DUCK_CONNECTIONS);
  }

  /** False refusals: each benign query must answer on every connection and tool. */
  @TestFactory
  Stream<DynamicNode> positiveControls() {
    List<DynamicNode> nodes = new ArrayList<>();
    for (Attack control : pgControls()) {
      nodes.add(controlNode(control, PG_CONNECTIONS));
    }
    for (Attack control : duckControls()) {
      nodes.add(controlNode(control, DUCK_CONNECTIONS));
    }
    return nodes.stream();
  }

  private DynamicNode controlNode(Attack control, List<String> connections) {
    List<DynamicNode> tests = new ArrayList<>();
    for (String connection : connections) {
      for (Tool tool : Tool.values()) {
        tests.add(
            DynamicTest.dynamicTest(
                "false refusal? " + connection + " " + tool,
                () -> {
                  JsonObject result = calls.call(tool.name, tool.args(connection, control.sql()));
                  String text = answerText(result);
                  synchronized (report) {
                    report.add(
                        "CONTROL\t"
                            + control.name()
                            + "\t"
                            + connection
                            + "\t"
                            + tool
                            + "\t"
                            + (result.getBoolean("isError", false) ? "REFUSED " + text : "ok"));
                  }
                  assertFalse(
                      result.getBoolean("isError", false),
                      "FALSE REFUSAL of the benign query '"
                          + control.name()
                          + "' on "
                          + connection
                          + " via "
                          + tool
                          + ": "
                          + text);
                }));
      }
    }
    return DynamicContainer.dynamicContainer("control: " + control.name(), tests);
  }

  private Stream<DynamicNode> attacks(List<Attack> attacks, List<String> connections) {
    List<DynamicNode> nodes = new ArrayList<>();
    for (Attack attack : attacks) {
      List<DynamicNode> tests = new ArrayList<>();
      for (String connection : connections) {
        for (Tool tool : Tool.values()) {
          tests.add(
              DynamicTest.dynamicTest(
                  connection + " " + tool, () -> runAttack(attack, connection, tool)));
        }
      }
      nodes.add(DynamicContainer.dynamicContainer(attack.name(), tests));
    }
    return nodes.stream();
  }

  private void runAttack(Attack attack, String connection, Tool tool) throws Exception {
    boolean pg = PG_CONNECTIONS.contains(connection);
    String sql = fill(attack.sql());
    Map<String, String> before = pg ? pgEffects() : duckEffects();
    JsonObject result;
    String text;
    try {
      result = calls.call(tool.name, tool.args(connection, sql));
      text = result.encode();
    } catch (AssertionError e) {
      result = new JsonObject().put("isError", true);
      text = "the call itself failed: " + e.getMessage();
    }
    boolean refused = result.getBoolean("isError", false);
    if (pg
        && sql.contains("stat_reset")
        && tool != Tool.EXPLAIN
        && !answerText(result).startsWith("rejected:")) {
      // PostgreSQL 14's statistics collector answers from a file up to 500 ms old
      awaitFreshStatistics();
    }
    List<String> changed = new ArrayList<>();
    if (pg) {
      changed.addAll(sessionChanges(connection));
    }
    Map<String, String> after = pg ? pgEffects() : duckEffects();
    for (Map.Entry<String, String> effect : before.entrySet()) {
      String now = after.get(effect.getKey());
      if (!Objects.equals(effect.getValue(), now)) {
        changed.add(effect.getKey() + ": " + cut(effect.getValue()) + " -> " + cut(now));
      }
    }
    // case-insensitive: to_tsvector and friends fold case
    String folded = text.toLowerCase(java.util.Locale.ROOT);
    for (String leak : List.of(SECRET, LISTED, hex(SECRET), base64(SECRET))) {
      if (folded.contains(leak.toLowerCase(java.util.Locale.ROOT))) {
        changed.add("the secret file's content or the marker folder's listing reached the answer");
        break;
      }
    }
    String outcome = refused ? "refused: " + answerText(result) : "answered";
    boolean mustRefuseFailed = attack.mustRefuseBecause() != null && !refused;
    synchronized (report) {
      report.add(
          (changed.isEmpty() && !mustRefuseFailed ? "HELD" : "ESCAPE")
              + "\t"
              + attack.name()
              + "\t"
              + connection
              + "\t"
              + tool
              + "\t"
              + cut(outcome)
              + (changed.isEmpty() ? "" : "\teffects: " + String.join("; ", changed))
              + (mustRefuseFailed ? "\tanswered, but " + attack.mustRefuseBecause() : ""));
    }
    if (!changed.isEmpty() || mustRefuseFailed) {
      boolean reactive =
          !connection.startsWith("jdbc")
              && changed.stream()
                  .anyMatch(
                      c ->
                          (c.startsWith("session") && c.contains("(execute_query)"))
                              || c.startsWith("a benign read"));
      boolean jdbc =
          changed.stream()
              .anyMatch(
                  c ->
                      (c.startsWith("session") || c.startsWith("a benign"))
                          && !(c.contains("(execute_query)") && !connection.startsWith("jdbc"))
                          && !(c.startsWith("a benign read") && !connection.startsWith("jdbc")));
      restore(pg, reactive, jdbc);
    }
    if (!changed.isEmpty()) {
      fail(
          "ESCAPE: attack '"
              + attack.name()
              + "' on "
              + connection
              + " via "
              + tool
              + " changed: "
              + String.join("; ", changed)
              + " (the call was "
              + cut(outcome)
              + ")");
    }
    if (mustRefuseFailed) {
      fail(
          "attack '"
              + attack.name()
              + "' on "
              + connection
              + " via "
              + tool
              + " was answered, but it must be refused: "
              + attack.mustRefuseBecause());
    }
  }

  // ------------------------------------------------------------------ effects

  /** Everything a PostgreSQL attack could change, read by the superuser beside Sonde. */
  private Map<String, String> pgEffects() throws SQLException {
    Map<String, String> e = new LinkedHashMap<>();
    // a little WAL, so that a switch would start a new segment
    one("SELECT pg_logical_emit_message(false, 'effects', 'tick')::text");
    e.put("canary rows", one("SELECT string_agg(id::text, ',' ORDER BY id) FROM canary"));
    e.put("sequence canary_seq", one("SELECT last_value || '/' || is_called FROM canary_seq"));
    e.put("large objects", one("SELECT count(*)::text FROM pg_largeobject_metadata"));
    e.put(
        "large object content",
        one("SELECT md5(string_agg(data, ''::bytea ORDER BY loid, pageno)) FROM pg_largeobject"));
    e.put(
        "replication slots",
        one(
            "SELECT coalesce(string_agg(slot_name, ',' ORDER BY slot_name), '') FROM pg_replication_slots"));
    e.put("replication origins", one("SELECT count(*)::text FROM pg_replication_origin"));
    e.put("postgresql.auto.conf", one("SELECT pg_read_file('postgresql.auto.conf')"));
    e.put(
        "pg_file_settings",
        one(
            "SELECT coalesce(string_agg(name || '=' || setting, ',' ORDER BY name, seqno), '') FROM pg_file_settings"));
    e.put("pg_conf_load_time", one("SELECT pg_conf_load_time()::text"));
    e.put(
        "pg_stat_database.stats_reset",
        one(
            "SELECT coalesce(stats_reset::text, 'never') FROM pg_stat_database WHERE datname = current_database()"));
    e.put(
        "pg_stat_bgwriter.stats_reset",
        one("SELECT coalesce(stats_reset::text, 'never') FROM pg_stat_bgwriter"));
    e.put(
        "pg_stat_archiver.stats_reset",
        one("SELECT coalesce(stats_reset::text, 'never') FROM pg_stat_archiver"));
    e.put(
        "pg_stat_wal.stats_reset",
        one("SELECT coalesce(stats_reset::text, 'never') FROM pg_stat_wal"));
    e.put(
        "pg_stat_slru.stats_reset",
        one("SELECT coalesce(max(stats_reset)::text, 'never') FROM pg_stat_slru"));
    e.put("WAL segment", one("SELECT pg_walfile_name(pg_current_wal_insert_lsn())"));
    e.put("backup in progress", one("SELECT pg_is_in_backup()::text"));
    e.put("sentinel backend", sentinelAlive());
    e.put(
        "advisory locks",
        one(
            "SELECT coalesce(string_agg(objid::text, ',' ORDER BY objid), '') FROM pg_locks WHERE locktype = 'advisory'"));
    e.put("prepared transactions", one("SELECT count(*)::text FROM pg_prepared_xacts"));
    e.put(
        "relations in public",
        one(
            "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class WHERE relnamespace = 'public'::regnamespace"));
    e.put(
        "functions in public",
        one("SELECT count(*)::text FROM pg_proc WHERE pronamespace = 'public'::regnamespace"));
    e.put(
        "collations in public",
        one(
            "SELECT count(*)::text FROM pg_collation WHERE collnamespace = 'public'::regnamespace"));
    e.put("roles", one("SELECT string_agg(rolname, ',' ORDER BY rolname) FROM pg_roles"));
    e.put("database settings", one("SELECT count(*)::text FROM pg_db_role_setting"));
    e.put("marker folder", markerListing());
    return e;
  }

  /** Everything a DuckDB attack could change, read beside Sonde on each file. */
  private Map<String, String> duckEffects() throws SQLException {
    Map<String, String> e = new LinkedHashMap<>();
    for (Map.Entry<String, Connection> duck : duckAdmins.entrySet()) {
      Connection c = duck.getValue();
      String at = duck.getKey() + " ";
      e.put(
          at + "canary rows",
          one(c, "SELECT string_agg(id::VARCHAR, ',' ORDER BY id) FROM canary"));
      e.put(
          at + "orders rows",
          one(c, "SELECT count(*)::VARCHAR || '/' || sum(n)::VARCHAR FROM orders"));
      e.put(
          at + "tables",
          one(
              c,
              "SELECT string_agg(database_name || '.' || schema_name || '.' || table_name, ',' ORDER BY ALL) FROM duckdb_tables()"));
      e.put(
          at + "views",
          one(
              c,
              "SELECT coalesce(string_agg(view_name, ',' ORDER BY ALL), '') FROM duckdb_views() WHERE NOT internal"));
      e.put(
          at + "macros",
          one(
              c,
              "SELECT coalesce(string_agg(function_name, ',' ORDER BY ALL), '') FROM duckdb_functions() WHERE function_type IN ('macro', 'table_macro') AND NOT internal"));
      e.put(
          at + "sequences",
          one(
              c,
              "SELECT coalesce(string_agg(sequence_name || '@' || coalesce(last_value::VARCHAR, '-'), ',' ORDER BY ALL), '') FROM duckdb_sequences()"));
      e.put(
          at + "types",
          one(
              c,
              "SELECT coalesce(string_agg(type_name, ',' ORDER BY ALL), '') FROM duckdb_types() WHERE NOT internal"));
      e.put(
          at + "databases",
          one(c, "SELECT string_agg(database_name, ',' ORDER BY ALL) FROM duckdb_databases()"));
      e.put(at + "secrets", oneOrError(c, "SELECT count(*)::VARCHAR FROM duckdb_secrets()"));
      try (Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT name, coalesce(value, '') FROM duckdb_settings() ORDER BY name")) {
        while (rs.next()) {
          e.put(at + "setting " + rs.getString(1), rs.getString(2));
        }
      }
      e.put(at + "memory_limit", one(c, "SELECT current_setting('memory_limit')::VARCHAR"));
      e.put(at + "threads", one(c, "SELECT current_setting('threads')::VARCHAR"));
    }
    for (Map.Entry<String, Path> file : duckFiles.entrySet()) {
      e.put(file.getKey() + " file size", size(file.getValue()));
      e.put(file.getKey() + " WAL size", size(Path.of(file.getValue() + ".wal")));
    }
    e.put("marker folder", markerListing());
    return e;
  }

  /**
   * The session values each of the connection's pooled sessions reads (through Sonde, on both the
   * execute path and the explain path), compared with what they were before any attack.
   */
  private List<String> sessionChanges(String connection) {
    List<String> changed = new ArrayList<>();
    // one session per pool: the one the attack ran on
    for (int i = 0; i < 1; i++) {
      Map<String, String> now;
      try {
        now = sessionValues(connection);
      } catch (AssertionError | RuntimeException e) {
        changed.add(
            "a benign read on " + connection + " failed afterwards: " + cut(e.getMessage()));
        return changed;
      }
      Map<String, String> expected = sessionBaseline.get(connection);
      if (!expected.equals(now)) {
        for (String key : expected.keySet()) {
          if (!Objects.equals(expected.get(key), now.get(key))) {
            changed.add(
                "session "
                    + key
                    + " on "
                    + connection
                    + " (execute_query): "
                    + expected.get(key)
                    + " -> "
                    + now.get(key));
          }
        }
        return changed;
      }
    }
    try {
      if (!explainPathHolds(connection)) {
        changed.add(
            "session settings on "
                + connection
                + "'s explain connection (explain_query) differ from the configured ones"
                + " (statement_timeout, default_transaction_read_only, standard_conforming_strings,"
                + " search_path, role, listening, prepared statements, cursors, advisory locks)");
      }
    } catch (AssertionError | RuntimeException e) {
      changed.add(
          "a benign explain on " + connection + " failed afterwards: " + cut(e.getMessage()));
    }
    return changed;
  }

  private Map<String, String> sessionValues(String connection) {
    StringBuilder sql = new StringBuilder("SELECT ");
    List<String> keys = new ArrayList<>(SESSION_PROBES.keySet());
    for (int i = 0; i < keys.size(); i++) {
      sql.append(i == 0 ? "" : ", ")
          .append(SESSION_PROBES.get(keys.get(i)))
          .append(" AS p")
          .append(i);
    }
    JsonArray row =
        calls
            .ok("execute_query", Tool.EXECUTE.args(connection, sql.toString()))
            .getJsonArray("rows")
            .getJsonArray(0);
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      values.put(keys.get(i), String.valueOf(row.getValue(i)));
    }
    return values;
  }

  /** explain_query runs on JDBC for both PostgreSQL types: its sessions are like jdbcpg's. */
  private static String jdbcTwin(String connection) {
    return connection.startsWith("jdbc") ? connection : "jdbc" + connection;
  }

  /**
   * EXPLAIN ANALYZE shows no values, but it shows row counts: 7 rows when every session value is
   * still the one before the attacks, 3 otherwise.
   */
  private boolean explainPathHolds(String connection) {
    Map<String, String> expected = sessionBaseline.get(jdbcTwin(connection));
    List<String> conditions = new ArrayList<>();
    expected.forEach(
        (key, value) ->
            conditions.add(
                "(" + SESSION_PROBES.get(key) + ") = '" + value.replace("'", "''") + "'"));
    String sql =
        "SELECT g FROM generate_series(1, CASE WHEN "
            + String.join(" AND ", conditions)
            + " THEN 7 ELSE 3 END) g";
    String plan =
        calls.ok("explain_query", Tool.EXPLAIN_ANALYZE.args(connection, sql)).getString("plan");
    if (!plan.matches("(?s).*actual[^)]*rows=7 .*"))
      System.err.println("PROBE PLAN " + connection + ": " + sql + " => " + plan);
    return plan.matches("(?s).*actual[^)]*rows=7 .*");
  }

  /** Waits until the statistics the superuser reads were written after this moment. */
  private void awaitFreshStatistics() throws SQLException {
    String asked = one("SELECT clock_timestamp()::text");
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (System.nanoTime() < deadline
        && !"t"
            .equals(
                one(
                    "SELECT pg_stat_get_snapshot_timestamp() > '"
                        + asked
                        + "'::timestamptz FROM pg_stat_database LIMIT 1"))) {
      Thread.onSpinWait();
    }
  }

  private String sentinelAlive() {
    try (Statement st = sentinel.createStatement();
        ResultSet rs = st.executeQuery("SELECT 1")) {
      rs.next();
      return "alive";
    } catch (SQLException e) {
      return "dead (" + e.getMessage() + ")";
    }
  }

  private String markerListing() {
    try (Stream<Path> files = Files.walk(markerDir)) {
      return String.join(
          ",",
          files
              .filter(p -> !p.equals(markerDir))
              .map(p -> markerDir.relativize(p).toString())
              .sorted()
              .toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String size(Path file) {
    try {
      return Files.exists(file) ? String.valueOf(Files.size(file)) : "none";
    } catch (IOException e) {
      return "unreadable";
    }
  }

  // ------------------------------------------------------------------ restoring after an escape

  /** Puts back what an escape changed, so the next attack starts from the same state. */
  private void restore(boolean pg, boolean reactive, boolean jdbc) throws Exception {
    if (pg) {
      restorePostgres(reactive, jdbc);
    } else {
      restoreDuckDb();
    }
    clearMarkers();
  }

  private void restorePostgres(boolean reactive, boolean jdbc) throws Exception {
    Map<String, String> now = pgEffects();
    for (String holder :
        list(
            admin,
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory'")) {
      if (holder.startsWith("PostgreSQL JDBC")) {
        jdbc = true;
      } else {
        reactive = true;
      }
    }
    quietly("DELETE FROM canary WHERE id NOT IN (1, 2, 3)");
    quietly("SELECT setval('canary_seq', 5, true)");
    quietly(
        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name <> 'keep_slot'");
    if (!now.get("replication slots").contains("keep_slot")) {
      quietly("SELECT pg_create_physical_replication_slot('keep_slot')");
    }
    quietly("SELECT pg_replication_origin_drop(roname) FROM pg_replication_origin");
    quietly("SELECT lo_unlink(oid) FROM pg_largeobject_metadata");
    quietly("SELECT lo_from_bytea(0, 'canary large object'::bytea)");
    quietly("SELECT pg_stop_backup()");
    quietly("DROP ROLE IF EXISTS pwn_role");
    quietly("DROP TABLE IF EXISTS pwn_table");
    quietly(
        "DO $$DECLARE c record; BEGIN FOR c IN SELECT collname FROM pg_collation WHERE collnamespace = 'public'::regnamespace LOOP EXECUTE format('DROP COLLATION public.%I', c.collname); END LOOP; END$$");
    if (!now.get("postgresql.auto.conf").equals(pgBaseline.get("postgresql.auto.conf"))) {
      quietly("ALTER SYSTEM RESET ALL");
      quietly("SELECT pg_reload_conf()");
    }
    if (!now.get("sentinel backend").equals("alive")) {
      openSentinel();
    }
    String sondeSessions =
        "FROM pg_stat_activity WHERE datname = current_database()"
            + " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            + " AND application_name NOT LIKE 'effects-%'";
    if (jdbc) {
      // sessions that hold locks or changed settings: end them, and start Sonde afresh (a JDBC
      // pool keeps handing out a session the server has closed)
      quietly("SELECT pg_terminate_backend(pid) " + sondeSessions);
      restartSonde();
    } else if (reactive) {
      // the reactive pool drops a session the server closed and opens a new one
      quietly(
          "SELECT pg_terminate_backend(pid) "
              + sondeSessions
              + " AND application_name NOT LIKE 'PostgreSQL JDBC%'");
      for (int i = 0; i < 1000; i++) {
        if ("0"
            .equals(
                one(
                    "SELECT count(*)::text "
                        + sondeSessions
                        + " AND application_name NOT LIKE 'PostgreSQL JDBC%'"))) {
          break;
        }
        Thread.onSpinWait();
      }
    }
  }

  private void restoreDuckDb() throws SQLException {
    for (Connection c : duckAdmins.values()) {
      duckQuietly(c, "DELETE FROM canary WHERE id NOT IN (1, 2, 3)");
      for (String table :
          list(
              c,
              "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND table_name NOT IN ('canary', 'orders')")) {
        duckQuietly(c, "DROP TABLE \"" + table + "\"");
      }
      for (String view : list(c, "SELECT view_name FROM duckdb_views() WHERE NOT internal")) {
        duckQuietly(c, "DROP VIEW \"" + view + "\"");
      }
      for (String macro :
          list(
              c,
              "SELECT function_name FROM duckdb_functions() WHERE function_type IN ('macro', 'table_macro') AND NOT internal")) {
        duckQuietly(c, "DROP MACRO \"" + macro + "\"");
      }
      for (String seq :
          list(
              c,
              "SELECT sequence_name FROM duckdb_sequences() WHERE sequence_name <> 'canary_seq'")) {
        duckQuietly(c, "DROP SEQUENCE \"" + seq + "\"");
      }
      for (String type : list(c, "SELECT type_name FROM duckdb_types() WHERE NOT internal")) {
        duckQuietly(c, "DROP TYPE \"" + type + "\"");
      }
      for (String db :
          list(
              c,
              "SELECT database_name FROM duckdb_databases() WHERE NOT internal AND database_name NOT IN ('duck', 'duckengine')")) {
        duckQuietly(c, "DETACH \"" + db + "\"");
      }
      duckQuietly(c, "CALL disable_logging()");
    }
    Connection first = duckAdmins.values().iterator().next();
    for (Map.Entry<String, String> setting : duckBaseline.entrySet()) {
      if (setting.getKey().endsWith(" setting enable_logging")
          || setting.getKey().endsWith(" setting enable_profiling")
          || setting.getKey().contains(" setting logging_")
          || setting.getKey().endsWith(" setting profiling_mode")) {
        String name = setting.getKey().substring(setting.getKey().indexOf(" setting ") + 9);
        duckQuietly(first, "RESET GLOBAL " + name);
      }
      if (setting.getKey().endsWith(" memory_limit")) {
        duckQuietly(first, "SET GLOBAL memory_limit = '" + setting.getValue() + "'");
      } else if (setting.getKey().endsWith(" threads")) {
        duckQuietly(first, "SET GLOBAL threads = " + setting.getValue());
      }
    }
  }

  private void clearMarkers() throws IOException {
    try (Stream<Path> files = Files.walk(markerDir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        if (!p.equals(markerDir)) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  // ------------------------------------------------------------------ set-up

  @BeforeAll
  void start() throws Exception {
    Files.deleteIfExists(REPORT);
    folder = Files.createTempDirectory("sonde-effects-");
    markerDir = Files.createDirectories(folder.resolve("markers"));
    secretFile = folder.resolve("secret.txt");
    Files.writeString(secretFile, SECRET + "\n");
    // listed by pg_ls_dir attacks on the folder: its name must not reach an answer either
    Files.writeString(folder.resolve(LISTED), "x");
    postgres = TestPostgres.start();
    url = postgres.createDatabase("effects");
    admin = DriverManager.getConnection(url + "&ApplicationName=effects-admin");
    for (String setup :
        List.of(
            "CREATE TABLE canary (id int)",
            "INSERT INTO canary VALUES (1), (2), (3)",
            "CREATE SEQUENCE canary_seq",
            "SELECT setval('canary_seq', 5, true)",
            "CREATE TABLE orders (channel text, n int)",
            "INSERT INTO orders VALUES ('web', 1), ('store', 2)",
            "SELECT lo_from_bytea(0, 'canary large object'::bytea)",
            "SELECT pg_create_physical_replication_slot('keep_slot')",
            "CREATE OR REPLACE PROCEDURE pwn_proc() LANGUAGE sql AS $$INSERT INTO canary VALUES (677)$$")) {
      try (Statement st = admin.createStatement()) {
        st.execute(setup);
      }
    }
    quietly("CREATE EXTENSION IF NOT EXISTS dblink");
    openSentinel();
    for (String name : DUCK_CONNECTIONS) {
      Path file = folder.resolve(name + ".duckdb");
      duckFiles.put(name, file);
      try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + file);
          Statement st = duck.createStatement()) {
        st.execute("CREATE TABLE canary (id INTEGER)");
        st.execute("INSERT INTO canary VALUES (1), (2), (3)");
        st.execute("CREATE SEQUENCE canary_seq");
        st.execute("CREATE TABLE orders (channel VARCHAR, n INTEGER)");
        st.execute("INSERT INTO orders VALUES ('web', 1), ('store', 2), ('web', 3)");
        st.execute("CHECKPOINT");
      }
    }
    Map<String, String> config = new LinkedHashMap<>();
    config.put("databases.defaultConnection", "pg");
    config.put("jobs.workerPoolSize", "1");
    config.put("docs.enabled", "false");
    for (String name : PG_CONNECTIONS) {
      String at = "databases.connections." + name + ".";
      config.put(at + "type", name.startsWith("jdbc") ? "jdbc" : "postgres");
      config.put(at + "url", url);
      config.put(at + "queryTimeoutSeconds", String.valueOf(TIMEOUT_SECONDS));
      config.put(at + "maxSqlLength", "100000");
      config.put(at + "guard", name.endsWith("engine") ? "engine-only" : "strict");
    }
    for (String name : DUCK_CONNECTIONS) {
      String at = "databases.connections." + name + ".";
      config.put(at + "type", "duckdb");
      config.put(at + "path", duckFiles.get(name).toString());
      config.put(at + "queryTimeoutSeconds", String.valueOf(TIMEOUT_SECONDS));
      config.put(at + "guard", name.endsWith("engine") ? "engine-only" : "strict");
    }
    sondeConfig = config;
    startSonde();
    for (String name : DUCK_CONNECTIONS) {
      // the same instance as Sonde's: DuckDB shares one per file and process
      java.util.Properties same = new java.util.Properties();
      same.setProperty(org.duckdb.DuckDBDriver.JDBC_STREAM_RESULTS, "true");
      duckAdmins.put(name, DriverManager.getConnection("jdbc:duckdb:" + duckFiles.get(name), same));
    }
    for (String name : PG_CONNECTIONS) {
      sessionBaseline.put(name, sessionValues(name));
    }
    String serverTimeout = (TIMEOUT_SECONDS + 2) + "s";
    for (String name : PG_CONNECTIONS) {
      assertEquals(
          serverTimeout,
          sessionBaseline.get(name).get("statement_timeout"),
          name + ": the configured statement timeout before any attack");
      assertEquals("on", sessionBaseline.get(name).get("transaction_read_only"), name);
      assertTrue(explainPathHolds(name), name + ": the explain probe before any attack");
    }
    pgBaseline = pgEffects();
    duckBaseline = duckEffects();
  }

  private void startSonde() {
    sonde = new InProcessSonde(sondeConfig);
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
    calls = new ToolCalls(client);
  }

  private void restartSonde() {
    client.close();
    sonde.close();
    startSonde();
  }

  private void openSentinel() throws SQLException {
    sentinel = DriverManager.getConnection(url + "&ApplicationName=effects-sentinel");
    try (Statement st = sentinel.createStatement();
        ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      sentinelPid = rs.getInt(1);
    }
  }

  @AfterAll
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (sonde != null) {
      sonde.close();
    }
    for (Connection c : duckAdmins.values()) {
      c.close();
    }
    if (sentinel != null) {
      sentinel.close();
    }
    if (admin != null) {
      admin.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  // ------------------------------------------------------------------ helpers

  private String fill(String sql) {
    return sql.replace("{secret}", secretFile.toString())
        .replace("{dir}", folder.toString())
        .replace("{marker}", markerDir.resolve("marker").toString())
        .replace("{sentinel}", String.valueOf(sentinelPid))
        .replace("{url}", libpqUrl());
  }

  private String libpqUrl() {
    // jdbc:postgresql://host:port/db?user=u[&password=p] -> postgresql://u[:p]@host:port/db
    String rest = url.substring("jdbc:postgresql://".length());
    String hostDb = rest.substring(0, rest.indexOf('?'));
    String user = "postgres";
    String password = null;
    for (String part : rest.substring(rest.indexOf('?') + 1).split("&")) {
      if (part.startsWith("user=")) {
        user = part.substring(5);
      } else if (part.startsWith("password=")) {
        password = part.substring(9);
      }
    }
    return "postgresql://" + user + (password == null ? "" : ":" + password) + "@" + hostDb;
  }

  private static String answerText(JsonObject result) {
    JsonArray content = result.getJsonArray("content");
    return content == null || content.isEmpty()
        ? result.encode()
        : String.valueOf(content.getJsonObject(0).getValue("text"));
  }

  private String one(String sql) throws SQLException {
    return one(admin, sql);
  }

  private static String one(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  /** The value, or the error (the same error before and after is no change). */
  private static String oneOrError(Connection c, String sql) {
    try {
      return one(c, sql);
    } catch (SQLException e) {
      return "error: " + e.getMessage();
    }
  }

  private static List<String> list(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  private void quietly(String sql) {
    try (Statement st = admin.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      // best effort: what it undoes may not be there
    }
  }

  private static void duckQuietly(Connection c, String sql) {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      // best effort: what it undoes may not be there
    }
  }

  private static String cut(String text) {
    if (text == null) {
      return "null";
    }
    String flat = text.replace("\n", "\\n").replace("\r", "\\r");
    return flat.length() > 300 ? flat.substring(0, 300) + "…" : flat;
  }

  private static String hex(String text) {
    return HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
