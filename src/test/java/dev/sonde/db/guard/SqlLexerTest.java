package dev.sonde.db.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The lexer reads each engine's SQL as that engine does: where statements end, what is a call. */
class SqlLexerTest {
  static SqlLexer.Scan mysql(String sql) {
    return SqlLexer.scan(sql, LexerRules.MYSQL);
  }

  @Test
  void mysqlDashCommentsNeedASpaceSoDoubleMinusCannotHideAStatement() {
    assertEquals(
        2,
        mysql("SELECT 1 --1; DROP TABLE t").statements().size(),
        "--1 is minus minus one in MySQL");
    assertEquals(1, mysql("SELECT 1 -- ; DROP TABLE t").statements().size());
    assertEquals(1, mysql("SELECT 1 # ; DROP TABLE t").statements().size());
    assertEquals(
        2,
        SqlLexer.scan("SELECT 1 # ; DROP TABLE t", LexerRules.POSTGRES).statements().size(),
        "# is no comment in PostgreSQL");
  }

  @Test
  void mysqlExecutableCommentsAreRefused() {
    assertTrue(
        mysql("SELECT 1 /*!50000 ; DROP TABLE t */").problem().contains("executable comments"));
    assertNull(
        mysql("SELECT 1 /*+ MAX_EXECUTION_TIME(1000) */").problem(),
        "optimizer hints are comments");
  }

  @Test
  void mysqlBackslashEscapesAndDoubleQuotedStrings() {
    assertTrue(
        mysql("SELECT 'it\\'s; DROP TABLE t'").problem().contains("NO_BACKSLASH_ESCAPES"),
        "whether \\' ends a MySQL string depends on the server's sql_mode, so it is refused");
    assertNull(
        mysql("SELECT 'it''s', 'a\\nb'").problem(), "doubled quotes and other escapes are fine");
    assertEquals(
        3,
        SqlLexer.scan("SELECT 'it\\'; DROP TABLE t; SELECT ''", LexerRules.POSTGRES)
            .statements()
            .size(),
        "in PostgreSQL the backslash is a character and the quote ends the string");
    assertEquals(
        1, mysql("SELECT \"a; DROP TABLE t\"").statements().size(), "a double-quoted MySQL string");
    assertTrue(mysql("SELECT `unclosed").problem().contains("unclosed"));
  }

  @Test
  void callsAreFoundThroughQuotesQualifiersSpacesAndComments() {
    assertEquals(Set.of("sleep"), Set.copyOf(mysql("SELECT `SLEEP` (5)").calls()));
    assertEquals(
        Set.of("load_file"), Set.copyOf(mysql("SELECT mydb.load_file/**/('/etc/passwd')").calls()));
    assertTrue(
        SqlLexer.scan("SELECT [load_extension]('x')", LexerRules.SQLITE)
            .calls()
            .contains("load_extension"));
    assertTrue(
        SqlLexer.scan("SELECT \"pg_sleep\"(1)", LexerRules.POSTGRES).calls().contains("pg_sleep"));
    assertTrue(
        SqlLexer.scan("SELECT 'pg_sleep(1)'", LexerRules.POSTGRES).calls().isEmpty(),
        "a string is not a call");
  }

  @Test
  void nestedCommentsCountInPostgresAndNotInSqlite() {
    assertEquals(
        1, SqlLexer.scan("SELECT 1 /* a /* b */ ; c */", LexerRules.POSTGRES).statements().size());
    assertEquals(
        2,
        SqlLexer.scan("SELECT 1 /* a /* b */ ; SELECT 2", LexerRules.SQLITE).statements().size(),
        "SQLite comments do not nest: the first */ ends it");
  }

  @Test
  void dollarQuotesAndParametersInPostgres() {
    assertEquals(
        1, SqlLexer.scan("SELECT $x$ ; DROP TABLE t $x$", LexerRules.POSTGRES).statements().size());
    assertEquals(
        2,
        SqlLexer.scan("SELECT $1; DROP TABLE t", LexerRules.POSTGRES).statements().size(),
        "$1 is a parameter");
    assertEquals(
        List.of("SELECT 1"),
        SqlLexer.scan("SELECT 1;\n-- done\n", LexerRules.POSTGRES).statements());
  }
}
