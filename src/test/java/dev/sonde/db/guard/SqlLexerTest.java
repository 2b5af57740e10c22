package dev.sonde.db.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.CallerException;
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
  void parenthesesPairUpOnlyOutsideStringsCommentsAndQuotedNames() {
    for (String balanced :
        List.of(
            "SELECT (1)",
            "SELECT ')' AS p",
            "SELECT 1 AS \")\" -- )",
            "SELECT $x$)$x$, /* ( */ f((2))")) {
      assertTrue(SqlLexer.scan(balanced, LexerRules.POSTGRES).balanced(), balanced);
    }
    for (String unbalanced :
        List.of("SELECT 1) UNION ALL (SELECT 2", "SELECT (1", "SELECT 1) AS x, (SELECT 2 AS y")) {
      assertFalse(SqlLexer.scan(unbalanced, LexerRules.POSTGRES).balanced(), unbalanced);
    }
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

  static SqlLexer.Scan pg(String sql) {
    return SqlLexer.scan(sql, LexerRules.POSTGRES);
  }

  static String refusedOnPostgres(String sql) {
    return assertThrows(
            CallerException.class,
            () ->
                SqlGuard.checkRead(
                    sql,
                    SqlGuard.Profile.POSTGRES,
                    SqlGuard.Mode.STRICT,
                    100000,
                    null,
                    FunctionPolicy.fixed(SqlGuard.Profile.POSTGRES.denylist())))
        .getMessage();
  }

  @Test
  void unicodeEscapedIdentifiersAreDecodedBeforeTheDenylist() {
    SqlLexer.Scan scan = pg("SELECT U&\"pg_read_fil\\0065\"('/etc/hostname')");
    assertNull(scan.problem());
    assertEquals(Set.of("pg_read_file"), scan.calls());
    assertEquals(
        List.of("SELECT \"pg_read_file\"('s')"),
        scan.neutral(),
        "the parser sees a quoted name called, not U & \"x\"(...)");
    assertTrue(
        refusedOnPostgres("SELECT U&\"pg_read_fil\\0065\"('/etc/hostname')")
            .contains("pg_read_file() is not allowed"));
    assertEquals(
        Set.of("pg_read_file"),
        pg("SELECT u&\"pg_read_fil!0065\" /* x */ uescape -- y\n '!' ('/etc/hostname')").calls(),
        "a custom escape character, with comments between");
    assertEquals(
        Set.of("pg_read_file"), pg("SELECT U&\"pg_read_fil\\+000065\"('/x')").calls(), "\\+XXXXXX");
    assertEquals(
        Set.of("PG_SLEEP"),
        pg("SELECT U&\"PG_SLEEP\"(1)").calls(),
        "a quoted name keeps its case in PostgreSQL: PG_SLEEP is not pg_sleep");
    assertEquals(
        Set.of("pg_sleep"),
        SqlLexer.scan("SELECT \"PG_SLEEP\"(1)", LexerRules.DUCKDB).calls(),
        "DuckDB finds functions by any case, quoted or not");
  }

  @Test
  void malformedUnicodeEscapesAreRefused() {
    for (String bad :
        List.of(
            "SELECT U&'\\00G1'",
            "SELECT U&'\\004'",
            "SELECT U&'\\D83D'",
            "SELECT U&'\\0000'",
            "SELECT U&'\\+110000'",
            "SELECT U&\"\"(1)",
            "SELECT U&'x' UESCAPE 'a'",
            "SELECT U&'x' UESCAPE '+'",
            "SELECT U&'x' UESCAPE '!!'",
            "SELECT U&'x' UESCAPE E'!'",
            "SELECT U&'x' UESCAPE",
            "SELECT U&\"pg_read_fil!0065\" UESCAPE '!!'('/x')")) {
      assertTrue(pg(bad).problem() != null, bad);
    }
    assertNull(pg("SELECT U&'\\D83D\\DE00', U&'a\\\\b', U&'it''s'").problem());
    assertEquals(
        1, pg("SELECT U&'\\0041'\n'; pg_sleep(1)'").statements().size(), "a continued string");
  }

  @Test
  void aCarriageReturnEndsALineCommentWhereTheEngineSaysSo() {
    String hidden = "SELECT 1 AS a --x\r, pg_read_file('/etc/hostname') AS f";
    assertEquals(Set.of("pg_read_file"), pg(hidden).calls());
    assertTrue(refusedOnPostgres(hidden).contains("pg_read_file() is not allowed"));
    assertEquals(2, pg("SELECT 1 --x\r; SELECT 2").statements().size());
    assertTrue(refusedOnPostgres("SELECT 1 --x\r; DELETE FROM t").contains("only one statement"));
    assertEquals(
        Set.of("read_text"),
        SqlLexer.scan("SELECT 1 AS a --x\r, read_text('/etc/hostname')", LexerRules.DUCKDB)
            .calls());
    assertEquals(
        Set.of("file_read"),
        SqlLexer.scan("SELECT 1 AS a --x\r, FILE_READ('/etc/hostname')", LexerRules.H2).calls());
    assertEquals(
        Set.of(),
        SqlLexer.scan("SELECT 1 AS a --x\r, load_extension('x')", LexerRules.SQLITE).calls(),
        "SQLite ends a line comment only at a newline (checked with sqlite-jdbc)");
    assertEquals(
        Set.of(), mysql("SELECT 1 AS a -- x\r, sleep(1)").calls(), "so does MySQL's lexer");
  }

  @Test
  void dollarQuoteTagsAreSpeltLikeIdentifiers() {
    assertEquals(List.of("SELECT $€$;$€$"), pg("SELECT $€$;$€$").statements());
    assertEquals(
        Set.of(),
        pg("SELECT $٣$'$٣$, 1 --'").calls(),
        "an Arabic-Indic digit is a letter to PostgreSQL's scanner");
    assertEquals(
        Set.of("pg_sleep"),
        pg("SELECT $٣$'$٣$, pg_sleep(1) --'").calls(),
        "the dollar quote ends before the call");
    assertEquals(2, pg("SELECT $1a$; SELECT 2").statements().size(), "$1 is a parameter");
    assertEquals(
        Set.of("file_read"),
        SqlLexer.scan("SELECT $a$, FILE_READ('/x'), $a$", LexerRules.H2).calls(),
        "H2 has only $$ quotes");
  }

  @Test
  void escapeStringsKeepTheirEscapesAcrossAContinuation() {
    assertEquals(
        Set.of("pg_sleep"),
        pg("SELECT E'x'\n'\\' ' AS a, pg_sleep(1) AS b --'").calls(),
        "the continued string ends at the quote after \\' and a space");
    assertEquals(
        Set.of("pg_sleep"),
        pg("SELECT E'x'\n'\\' ' pg_sleep(1) ' '").calls(),
        "E'x' continues with \\' escaped, so the call is outside any string");
    assertEquals(
        Set.of("pg_sleep"),
        pg("SELECT E'x' -- c\r'\\' ' pg_sleep(1) ' '").calls(),
        "a line comment may stand in the continuation");
    assertEquals(
        Set.of(),
        pg("SELECT E'x' /* c */\n'\\' ' pg_sleep(1) ' '").calls(),
        "a block comment may not: the second string is a plain one");
  }

  @Test
  void engineSpecificCommentsAndParameters() {
    assertEquals(
        Set.of("file_read"),
        SqlLexer.scan("SELECT 1 // '\n, FILE_READ('/x') -- '", LexerRules.H2).calls(),
        "// is a line comment in H2");
    assertEquals(
        Set.of("load_extension"),
        SqlLexer.scan("SELECT $a(') , load_extension('x') , $b(')", LexerRules.SQLITE).calls(),
        "a SQLite $name(...) parameter may hold a quote");
    assertEquals(
        1,
        mysql("SELECT 1 --\u0001 ; DROP TABLE t").statements().size(),
        "MySQL's -- comment may be followed by any control character");
    assertTrue(
        SqlLexer.scan("SELECT\u00a0read_text('/x')", LexerRules.DUCKDB)
            .problem()
            .contains("U+00A0"),
        "DuckDB reads a no-break space as a space, or as a letter after a $tag$ in a comment");
    assertNull(SqlLexer.scan("SELECT '\u00a0' /*\u00a0*/", LexerRules.DUCKDB).problem());
    assertEquals(
        Set.of("\\0074"),
        SqlLexer.scan("SELECT U&\"\\0074\"()", LexerRules.DUCKDB).calls(),
        "DuckDB reads U&\"x\" as U & \"x\", and calls the name as written");
    assertEquals(
        Set.of("select\u00a0pg_sleep"),
        pg("SELECT\u00a0pg_sleep(1)").calls(),
        "PostgreSQL reads it as part of a name");
  }

  @Test
  void jdbcPlaceholdersAreDoubledOnlyOutsideQuotesAndComments() {
    assertEquals(
        "SELECT '{\"a\":1}'::jsonb ?? 'a', j ??| array['?'], j ??& b, \"?\", $q$?$q$ -- ?\n, E'\\'?'",
        SqlLexer.escapeJdbcPlaceholders(
            "SELECT '{\"a\":1}'::jsonb ? 'a', j ?| array['?'], j ?& b, \"?\", $q$?$q$ -- ?\n, E'\\'?'",
            LexerRules.POSTGRES));
    assertEquals(
        "SELECT 1 /* ? */",
        SqlLexer.escapeJdbcPlaceholders("SELECT 1 /* ? */", LexerRules.POSTGRES));
  }
}
