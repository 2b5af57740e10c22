package dev.sonde.db.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.CallerException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The guard against its corpus (real analytics SQL that must pass, and reported bypasses that must
 * not), then against mutants of every case: comments and white space injected, letter case changed.
 * A mutant must be classified like its original.
 */
class SqlGuardCorpusTest {
  record Case(boolean allowed, String sql) {}

  static Connection duckdb;
  static FunctionPolicy duckDbFunctions;

  @BeforeAll
  static void open() throws Exception {
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
    duckDbFunctions = FunctionPolicy.duckdb(SqlGuard.Profile.DUCKDB.denylist(), duckdb);
  }

  @AfterAll
  static void close() throws Exception {
    duckdb.close();
  }

  static SqlGuard.EngineParser duckDbParser() {
    return statement -> {
      try (PreparedStatement p = duckdb.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
        p.setString(1, statement);
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
          return new JsonObject(rs.getString(1));
        }
      }
    };
  }

  static List<Case> corpus(String name) throws IOException {
    List<Case> cases = new ArrayList<>();
    for (String line :
        Files.readAllLines(Path.of("src/test/resources/guard/" + name), StandardCharsets.UTF_8)) {
      if (line.startsWith("#") || line.isEmpty()) {
        continue;
      }
      cases.add(new Case(line.charAt(0) == 'A', unescape(line.substring(2))));
    }
    return cases;
  }

  static String unescape(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length()) {
        char next = text.charAt(++i);
        out.append(
            switch (next) {
              case 'n' -> '\n';
              case 'r' -> '\r';
              case 't' -> '\t';
              case '0' -> '\0';
              default -> next;
            });
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  static boolean allowed(String sql, SqlGuard.Profile profile, SqlGuard.EngineParser parser) {
    try {
      // DuckDB's cases are judged as a connection judges them, by the engine's function catalogue
      FunctionJudge functions =
          parser != null ? duckDbFunctions : FunctionPolicy.fixed(profile.denylist());
      SqlGuard.checkRead(sql, profile, SqlGuard.Mode.STRICT, 65536, parser, functions);
      return true;
    } catch (CallerException refused) {
      return false;
    }
  }

  static void check(String corpus, SqlGuard.Profile profile, SqlGuard.EngineParser parser)
      throws IOException {
    List<String> wrong = new ArrayList<>();
    List<Case> cases = corpus(corpus);
    for (Case c : cases) {
      if (allowed(c.sql(), profile, parser) != c.allowed()) {
        wrong.add((c.allowed() ? "falsely refused: " : "ESCAPED: ") + c.sql());
      }
    }
    assertTrue(cases.size() >= 300, corpus + " has " + cases.size() + " cases");
    assertEquals(List.of(), wrong, corpus + ": " + wrong.size() + " misclassified");
  }

  static void checkMutants(String corpus, SqlGuard.Profile profile, SqlGuard.EngineParser parser)
      throws IOException {
    List<UnaryOperator<String>> mutations =
        List.of(
            sql -> outside(sql, ws -> "\n\t  "),
            sql -> outside(sql, ws -> " /* injected ; comment */ "),
            sql -> outside(sql, ws -> " -- injected ; comment\n"),
            sql -> caseOutside(sql, true),
            sql -> caseOutside(sql, false),
            sql -> "  \n" + sql + "\n  ");
    List<String> wrong = new ArrayList<>();
    int mutants = 0;
    for (Case c : corpus(corpus)) {
      boolean original = allowed(c.sql(), profile, parser);
      for (UnaryOperator<String> mutation : mutations) {
        String mutant = mutation.apply(c.sql());
        mutants++;
        if (allowed(mutant, profile, parser) != original) {
          wrong.add(
              (original ? "mutant falsely refused: " : "MUTANT ESCAPED: ")
                  + mutant.replace("\n", "\\n"));
        }
      }
    }
    assertTrue(mutants >= 1800, "mutants: " + mutants);
    assertEquals(
        List.of(),
        wrong,
        corpus + ": " + wrong.size() + " mutants classified unlike their originals");
  }

  @Test
  void duckDbCorpus() throws IOException {
    check("duckdb.tsv", SqlGuard.Profile.DUCKDB, duckDbParser());
  }

  @Test
  void postgresCorpus() throws IOException {
    check("postgres.tsv", SqlGuard.Profile.POSTGRES, null);
  }

  @Test
  void sqliteCorpus() throws IOException {
    check("sqlite.tsv", SqlGuard.Profile.SQLITE, null);
  }

  @Test
  void h2Corpus() throws IOException {
    check("h2.tsv", SqlGuard.Profile.H2, null);
  }

  @Test
  void mysqlCorpus() throws IOException {
    check("mysql.tsv", SqlGuard.Profile.MYSQL, null);
  }

  @Test
  void sqliteH2AndMysqlMutants() throws IOException {
    checkMutants("sqlite.tsv", SqlGuard.Profile.SQLITE, null);
    checkMutants("h2.tsv", SqlGuard.Profile.H2, null);
    checkMutants("mysql.tsv", SqlGuard.Profile.MYSQL, null);
  }

  @Test
  void duckDbMutants() throws IOException {
    checkMutants("duckdb.tsv", SqlGuard.Profile.DUCKDB, duckDbParser());
  }

  @Test
  void postgresMutants() throws IOException {
    checkMutants("postgres.tsv", SqlGuard.Profile.POSTGRES, null);
  }

  /** Rewrites each run of white space that lies outside quotes and comments. */
  static String outside(String sql, UnaryOperator<String> replacement) {
    StringBuilder out = new StringBuilder();
    forEachRegion(
        sql,
        (text, protectedRegion) -> {
          if (protectedRegion) {
            out.append(text);
          } else {
            out.append(
                text.replaceAll(
                    "\\s+", java.util.regex.Matcher.quoteReplacement(replacement.apply(" "))));
          }
        });
    return out.toString();
  }

  static String caseOutside(String sql, boolean upper) {
    StringBuilder out = new StringBuilder();
    forEachRegion(
        sql,
        (text, protectedRegion) ->
            out.append(
                protectedRegion
                    ? text
                    : upper ? text.toUpperCase(Locale.ROOT) : text.toLowerCase(Locale.ROOT)));
    return out.toString();
  }

  interface RegionConsumer {
    void accept(String text, boolean protectedRegion);
  }

  /** Splits SQL into quoted or commented regions (left alone) and the rest. */
  static void forEachRegion(String sql, RegionConsumer consumer) {
    int i = 0;
    int plainStart = 0;
    while (i < sql.length()) {
      int end = protectedEnd(sql, i);
      if (end > i) {
        consumer.accept(sql.substring(plainStart, i), false);
        consumer.accept(sql.substring(i, end), true);
        i = end;
        plainStart = i;
      } else {
        i++;
      }
    }
    consumer.accept(sql.substring(plainStart), false);
  }

  private static int protectedEnd(String sql, int i) {
    char c = sql.charAt(i);
    if (c == '\'' || c == '"') {
      int j = i + 1;
      while (j < sql.length()) {
        if (sql.charAt(j) == '\\'
            && c == '\''
            && i > 0
            && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e')) {
          j += 2;
        } else if (sql.charAt(j) == c) {
          return j + 1;
        } else {
          j++;
        }
      }
      return sql.length();
    }
    if (sql.charAt(i) == '#') {
      // a MySQL line comment; elsewhere '#' occurs only inside strings, which are handled above
      int nl = sql.indexOf('\n', i);
      return nl < 0 ? sql.length() : nl + 1;
    }
    if (sql.startsWith("--", i)) {
      int nl = sql.indexOf('\n', i);
      return nl < 0 ? sql.length() : nl + 1;
    }
    if (sql.startsWith("/*", i)) {
      int close = sql.indexOf("*/", i + 2);
      return close < 0 ? sql.length() : close + 2;
    }
    if (c == '$') {
      int close = sql.indexOf('$', i + 1);
      if (close > i && sql.substring(i + 1, close).matches("[A-Za-z_]*")) {
        String tag = sql.substring(i, close + 1);
        int end = sql.indexOf(tag, close + 1);
        return end < 0 ? sql.length() : end + tag.length();
      }
    }
    if (c == 'E' || c == 'e') {
      return i;
    }
    return i;
  }
}
