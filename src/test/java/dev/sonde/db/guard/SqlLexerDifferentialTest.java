package dev.sonde.db.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The lexer against the engines' own parsers, on generated texts that mix comments (ended by a
 * newline, a carriage return, both, or the end), nested block comments, every kind of string and
 * quoted identifier (E'', U&amp;'' and U&amp;"" with and without UESCAPE, dollar quotes with ASCII
 * and non-ASCII tags, continued strings), semicolons and calls inside and outside all of them.
 *
 * <p>Where the engine accepts a text and the lexer does too, the lexer must see exactly the
 * engine's number of statements and every function the engine calls (it may see more: a false
 * refusal is safe, a miss is an escape). DuckDB answers with {@code json_serialize_sql}; PostgreSQL
 * with one Parse message (the reactive client's prepare: "cannot insert multiple commands" means
 * more than one statement), then by running the text, whose tracer functions {@code t0()} to {@code
 * t9()} record that they ran.
 *
 * <p>{@code -Dsonde.lexer.cases=200000} runs more cases per engine, {@code -Dsonde.lexer.seed=N}
 * another seed. A failure prints each text as a Java string literal, ready for a regression test.
 */
class SqlLexerDifferentialTest {
  static final int CASES = Integer.getInteger("sonde.lexer.cases", 3000);
  static final long SEED = Long.getLong("sonde.lexer.seed", 17L);

  /** What the engine made of one text: its statements and the functions it called. */
  record Engine(int statements, Set<String> calls) {}

  /** Counts and the texts the lexer read wrongly. */
  static final class Tally {
    int cases;
    int engineAccepted;
    int compared;
    int falseRefusals;
    int extraCalls;
    int policyRefusals;
    int brokenConnections;
    final List<String> escapes = new ArrayList<>();
    final List<String> refusalSamples = new ArrayList<>();
    final List<String> extraSamples = new ArrayList<>();

    void check(String text, LexerRules rules, Engine engine) {
      cases++;
      if (engine == null) {
        return;
      }
      engineAccepted++;
      SqlLexer.Scan scan = SqlLexer.scan(text, rules);
      if (scan.problem() != null && scan.problem().startsWith("DuckDB reads the non-ASCII space")) {
        policyRefusals++;
        return;
      }
      if (scan.problem() != null) {
        falseRefusals++;
        sample(scan.problem() + ": " + literal(text));
        return;
      }
      compared++;
      int seen = scan.statements().size();
      if (seen < engine.statements()) {
        escapes.add(
            "lexer sees "
                + seen
                + " statement(s), engine "
                + engine.statements()
                + ": "
                + literal(text));
        return;
      }
      if (engine.calls() == null && seen >= engine.statements()) {
        return; // "more than one" is all PostgreSQL says of several statements
      }
      if (seen > engine.statements()) {
        falseRefusals++;
        sample(
            "lexer sees "
                + seen
                + " statements, engine "
                + engine.statements()
                + ": "
                + literal(text));
        return;
      }
      if (engine.calls() == null) {
        return;
      }
      // operators (DuckDB reports & and */ as functions) are not the lexer's business
      Set<String> seenCalls = new TreeSet<>(scan.calls());
      if (seenCalls.remove("abs")) {
        seenCalls.add("t0");
      }
      Set<String> missed = new TreeSet<>();
      for (String call : engine.calls()) {
        if (call.matches("t[0-9]")) {
          missed.add(call);
        }
      }
      missed.removeAll(seenCalls);
      if (!missed.isEmpty()) {
        escapes.add("lexer misses calls " + missed + ": " + literal(text));
      } else if (seenCalls.stream().filter(call -> call.matches("t[0-9]")).count()
          > engine.calls().stream().filter(call -> call.matches("t[0-9]")).count()) {
        extraCalls++;
        if (extraSamples.size() < 5) {
          extraSamples.add(seenCalls + " vs " + engine.calls() + ": " + literal(text));
        }
      }
    }

    private void sample(String line) {
      if (refusalSamples.size() < 15) {
        refusalSamples.add(line);
      }
    }

    void report(String engine, long nanos) {
      System.out.printf(
          "lexer vs %s: %d cases in %d ms, %d accepted by the engine, %d compared, %d escapes,"
              + " %d false refusals, %d refused by design (DuckDB's non-ASCII spaces),"
              + " %d with extra calls, %d reconnections%n",
          engine,
          cases,
          TimeUnit.NANOSECONDS.toMillis(nanos),
          engineAccepted,
          compared,
          escapes.size(),
          falseRefusals,
          policyRefusals,
          extraCalls,
          brokenConnections);
      refusalSamples.forEach(line -> System.out.println("  refused: " + line));
      extraSamples.forEach(line -> System.out.println("  more calls seen: " + line));
      assertEquals(
          List.of(),
          escapes.subList(0, Math.min(20, escapes.size())),
          engine + ": the lexer saw less than the engine");
      assertTrue(
          engineAccepted * 10 >= cases,
          "the generator makes too few valid texts: " + engineAccepted);
      assertTrue(
          falseRefusals * 20 <= engineAccepted,
          "false refusals: " + falseRefusals + " of " + engineAccepted);
    }
  }

  @Test
  void duckDbAgrees() throws Exception {
    Generator generator = new Generator(new Random(SEED));
    Tally tally = new Tally();
    long start = System.nanoTime();
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement serialize =
            duckdb.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
      for (int i = 0; i < CASES; i++) {
        String text = generator.text();
        tally.check(text, LexerRules.DUCKDB, duckDb(serialize, text));
      }
    }
    tally.report("DuckDB", System.nanoTime() - start);
  }

  /**
   * SQLite and H2 have no parser to ask, so each text is {@code SELECT 1 AS a <noise> , abs(2) AS
   * b}: the engine returns the column b exactly when the noise leaves the call outside, and the
   * lexer must then see {@code abs} called.
   */
  @Test
  void sqliteAndH2Agree() throws Exception {
    for (String engine : List.of("sqlite", "h2")) {
      Generator generator = new Generator(new Random(SEED + engine.length()));
      LexerRules rules = engine.equals("sqlite") ? LexerRules.SQLITE : LexerRules.H2;
      Tally tally = new Tally();
      long start = System.nanoTime();
      try (Connection db =
          DriverManager.getConnection(
              engine.equals("sqlite") ? "jdbc:sqlite::memory:" : "jdbc:h2:mem:lexer")) {
        for (int i = 0; i < CASES / 3; i++) {
          String text = "SELECT 1 AS a" + generator.noiseRun() + ", abs(2) AS b";
          tally.check(text, rules, columns(db, text));
        }
      }
      tally.report(engine, System.nanoTime() - start);
    }
  }

  /**
   * One statement that called abs when the engine returns a column named b holding 2 (the noise may
   * add columns of its own: a SQLite {@code $name} is one); null when the engine fails.
   */
  static Engine columns(Connection db, String text) {
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery(text)) {
      boolean called = false;
      if (rs.next()) {
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          called |=
              rs.getMetaData().getColumnLabel(i).equalsIgnoreCase("b")
                  && "2".equals(rs.getString(i));
        }
      }
      return new Engine(1, called ? Set.of("t0") : Set.of());
    } catch (Exception e) {
      return null;
    }
  }

  static Engine duckDb(PreparedStatement serialize, String text) throws Exception {
    serialize.setString(1, text);
    JsonObject ast;
    try (ResultSet rs = serialize.executeQuery()) {
      rs.next();
      String json = rs.getString(1);
      if (json == null || json.isEmpty()) {
        System.out.println("  DuckDB serialized nothing for: " + literal(text));
        return null;
      }
      ast = new JsonObject(json);
    }
    if (ast.getBoolean("error", false)) {
      return null;
    }
    JsonArray statements = ast.getJsonArray("statements");
    Set<String> calls = new TreeSet<>();
    functions(statements, calls);
    return new Engine(statements.size(), calls);
  }

  static void functions(Object node, Set<String> calls) {
    if (node instanceof JsonObject object) {
      if ("FUNCTION".equals(object.getString("class"))) {
        calls.add(object.getString("function_name"));
      }
      object.forEach(entry -> functions(entry.getValue(), calls));
    } else if (node instanceof JsonArray array) {
      array.forEach(item -> functions(item, calls));
    }
  }

  @Test
  void postgresAgrees() throws Exception {
    Generator generator = new Generator(new Random(SEED + 1));
    Tally tally = new Tally();
    Vertx vertx = Vertx.vertx();
    try (TestPostgres postgres = TestPostgres.start()) {
      String url = postgres.createDatabase("lexer");
      try (Connection db = DriverManager.getConnection(url);
          Statement st = db.createStatement()) {
        st.execute("CREATE TABLE trace (n int)");
        for (int i = 0; i < 10; i++) {
          st.execute(
              ("CREATE FUNCTION t%d() RETURNS int LANGUAGE plpgsql AS"
                      + " 'BEGIN INSERT INTO trace VALUES (%d); RETURN %d; END'")
                  .formatted(i, i, i));
        }
      }
      PgConnectOptions options = PgConnectOptions.fromUri(url.substring("jdbc:".length()));
      PgConnection connection = get(PgConnection.connect(vertx, options));
      long start = System.nanoTime();
      for (int i = 0; i < CASES; i++) {
        String text = generator.text();
        if (SqlLexer.scan(text, LexerRules.POSTGRES).statements().isEmpty()) {
          // only comments to the lexer: the guard refuses it whatever the engine sees (and the
          // reactive client cannot prepare an empty query)
          tally.cases++;
          continue;
        }
        Engine engine;
        try {
          engine = postgres(connection, text);
        } catch (Exception broken) {
          // the reactive client chokes on a text that is empty to the server: start afresh
          connection.close();
          connection = get(PgConnection.connect(vertx, options));
          tally.brokenConnections++;
          engine = null;
        }
        tally.check(text, LexerRules.POSTGRES, engine);
      }
      tally.report("PostgreSQL", System.nanoTime() - start);
      get(connection.close());
    } finally {
      get(vertx.close());
    }
  }

  static Engine postgres(PgConnection connection, String text) throws Exception {
    io.vertx.sqlclient.PreparedStatement prepared;
    try {
      prepared = get(connection.prepare(text));
    } catch (io.vertx.pgclient.PgException e) {
      String message = String.valueOf(e.getMessage());
      // more than one statement: the lexer must see at least two; which calls ran is not asked
      return message.contains("cannot insert multiple commands") ? new Engine(2, null) : null;
    }
    try {
      get(prepared.query().execute());
    } catch (io.vertx.pgclient.PgException e) {
      return null;
    } finally {
      get(prepared.close());
    }
    Set<String> calls = new TreeSet<>();
    for (Row row : get(connection.query("DELETE FROM trace RETURNING n").execute())) {
      calls.add("t" + row.getInteger(0));
    }
    return new Engine(1, calls);
  }

  static <T> T get(Future<T> future) throws Exception {
    try {
      return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** The text as a Java string literal. */
  static String literal(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\f' -> out.append("\\f");
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < ' ' || c > '~') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /**
   * Texts of the form {@code SELECT expr [AS alias], ...} (sometimes two statements), with noise
   * between any two tokens and in every string and comment.
   */
  static final class Generator {
    private final Random random;

    Generator(Random random) {
      this.random = random;
    }

    String text() {
      StringBuilder b = new StringBuilder();
      b.append(maybe(4) ? noise() : "").append(select());
      if (maybe(6)) {
        b.append(gap()).append(';').append(gap()).append(select());
      }
      if (maybe(5)) {
        b.append(gap()).append(';').append(maybe(2) ? noise() : "");
      }
      return b.toString();
    }

    private String select() {
      StringBuilder b = new StringBuilder(pick("SELECT", "select", "SeLeCt"));
      int columns = 1 + random.nextInt(4);
      for (int i = 0; i < columns; i++) {
        b.append(i == 0 ? gap() : gap() + "," + gap());
        b.append(expression());
        if (maybe(3)) {
          b.append(gap()).append("AS").append(gap()).append(alias());
        }
      }
      return b.toString();
    }

    /** At least one separator: white space or a comment, sometimes several. */
    private String gap() {
      StringBuilder b = new StringBuilder(maybe(2) ? " " : space());
      while (maybe(3)) {
        b.append(noise());
      }
      return b.toString();
    }

    /** Noise of every kind, and sometimes a string or quoted name that may shift what follows. */
    String noiseRun() {
      StringBuilder b = new StringBuilder(gap());
      for (int i = random.nextInt(3); i >= 0; i--) {
        b.append(
            switch (random.nextInt(6)) {
              case 0 -> standardString();
              case 1 -> escapeString();
              case 2 -> dollarString();
              case 3 -> pick("\"", "`", "[", "]", "'", "$a(')", "//", "#", "-- ", "--\u0001");
              default -> noise();
            });
      }
      return b.append(gap()).toString();
    }

    private String noise() {
      return switch (random.nextInt(4)) {
        case 0 -> space();
        case 1 -> "--" + filler() + pick("\n", "\r", "\r\n", "\n", "\r", "");
        case 2 -> "/*" + filler() + (maybe(3) ? "/*" + filler() + "*/" + filler() : "") + "*/";
        default -> space() + space();
      };
    }

    private String space() {
      // DuckDB refuses its non-ASCII spaces outside quotes, so they come rarely
      return maybe(30)
          ? pick("\u00a0", "\u2003")
          : pick(" ", "\t", "\n", "\r", "\r\n", "\f", "\u000b");
    }

    /** A short run of the characters that open, close or hide things. */
    private String filler() {
      StringBuilder b = new StringBuilder();
      int atoms = random.nextInt(5);
      for (int i = 0; i < atoms; i++) {
        b.append(
            pick(
                "x",
                " ",
                ",",
                ";",
                "'",
                "\"",
                "$",
                "$a$",
                "$€$",
                "--",
                "\\",
                call(),
                "E'",
                "U&'",
                "\r",
                "\n",
                "*",
                "/",
                "1",
                ", t1() AS z",
                "é"));
      }
      return b.toString();
    }

    private String call() {
      return "t" + random.nextInt(10) + "()";
    }

    private String expression() {
      return switch (random.nextInt(12)) {
        case 0, 1, 2 -> call();
        case 3 -> "\"t" + random.nextInt(10) + "\"()";
        case 4 -> "public" + pick(".", " . ", "/**/./**/") + call();
        case 5 -> escapedCall();
        case 6 -> pick("1", "42", "0.5", "1e3");
        case 7 -> standardString();
        case 8 -> escapeString();
        case 9 -> dollarString();
        case 10 -> unicodeString();
        default -> continuedString();
      };
    }

    /** {@code U&"t3"()} with some letters escaped, sometimes with a UESCAPE clause. */
    private String escapedCall() {
      String name = "t" + random.nextInt(10);
      char escape = maybe(2) ? '\\' : pick('!', '#', '%', '~');
      StringBuilder b = new StringBuilder("U&\"");
      for (char c : name.toCharArray()) {
        if (maybe(2)) {
          b.append(escape)
              .append(maybe(4) ? String.format("+%06X", (int) c) : String.format("%04x", (int) c));
        } else {
          b.append(c);
        }
      }
      b.append('"');
      if (escape != '\\' || maybe(8)) {
        b.append(gap())
            .append(pick("UESCAPE", "uescape"))
            .append(gap())
            .append('\'')
            .append(escape)
            .append('\'');
      }
      return b.append(maybe(4) ? gap() : "").append("()").toString();
    }

    private String standardString() {
      String body = filler();
      // usually well formed; sometimes a raw quote is left in to shift what follows
      return "'" + (maybe(5) ? body : body.replace("'", "''")) + "'";
    }

    private String escapeString() {
      String body = filler();
      return pick("E'", "e'")
          + (maybe(5) ? body : body.replace("\\", "\\\\").replace("'", pick("\\'", "''")))
          + pick("", "\\'", "\\\\", "\\n")
          + "'";
    }

    private String unicodeString() {
      String body = filler().replace("'", "''");
      if (!maybe(4)) {
        body = body.replace("\\", "\\\\");
      }
      return "U&'" + body + pick("", "\\0041", "\\+01F600", "\\D83D\\DE00") + "'";
    }

    private String dollarString() {
      String tag = pick("", "a", "€", "٣", "_x1", "é", "q" + random.nextInt(3));
      return "$" + tag + "$" + filler() + "$" + tag + "$";
    }

    /** A string, white space holding a newline (with line comments, or a block comment), more. */
    private String continuedString() {
      String first = pick(standardString(), escapeString(), unicodeString());
      String between =
          pick(" ", "", "\t")
              + pick("\n", "\r", "\r\n", "-- c\n", "-- c\r", "/* c */\n", " ")
              + pick("", " ", "-- d\n", "\n");
      return first + between + pick(standardString(), "'\\' '" + filler().replace("'", "''") + "'");
    }

    private String alias() {
      return pick("c1", "\"c;1\"", "U&\"c\\0031\"", "\"a--b\"", "x");
    }

    private boolean maybe(int oneIn) {
      return random.nextInt(oneIn) == 0;
    }

    @SafeVarargs
    private <T> T pick(T... options) {
      return options[random.nextInt(options.length)];
    }
  }
}
