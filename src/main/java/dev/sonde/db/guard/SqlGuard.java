package dev.sonde.db.guard;

import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.DescribeStatement;
import net.sf.jsqlparser.statement.ShowColumnsStatement;
import net.sf.jsqlparser.statement.ShowStatement;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.show.ShowTablesStatement;

/**
 * Decides whether SQL may run as a read, in layers; a refused statement never reaches the database.
 *
 * <ol>
 *   <li>the lexer: exactly one statement, nothing unclosed, no executable comments;
 *   <li>functions with side effects or escapes, wherever they are called;
 *   <li>in strict mode, a parser: the engine's own where it has one (DuckDB), else JSqlParser,
 *       accepting only reads and walking the whole tree;
 *   <li>the engine itself runs the read in a read-only transaction (see the dialects).
 * </ol>
 */
public final class SqlGuard {
  /**
   * Strict parses; engine-only keeps the lexer and leaves the rest to the engine's read-only mode.
   */
  public enum Mode {
    STRICT,
    ENGINE_ONLY;

    public static Mode of(String name) {
      return "engine-only".equals(name) ? ENGINE_ONLY : STRICT;
    }
  }

  /** The engine's own parser: the AST of a SELECT as DuckDB's json_serialize_sql returns it. */
  @FunctionalInterface
  public interface EngineParser {
    JsonObject parse(String statement) throws Exception;
  }

  /** How one engine's SQL is read and which of its functions are refused. */
  public record Profile(String engine, LexerRules lexer, Set<String> denylist) {
    public static final Profile DUCKDB = new Profile("duckdb", LexerRules.DUCKDB, Denylist.DUCKDB);
    public static final Profile POSTGRES =
        new Profile("postgres", LexerRules.POSTGRES, Denylist.POSTGRES);
    public static final Profile MYSQL = new Profile("mysql", LexerRules.MYSQL, Denylist.MYSQL);
    public static final Profile SQLITE = new Profile("sqlite", LexerRules.SQLITE, Denylist.SQLITE);
    public static final Profile H2 = new Profile("h2", LexerRules.H2, Denylist.H2);

    /** An engine Sonde has no dialect for: the strictest lexing and every engine's denylist. */
    public static final Profile GENERIC = new Profile("jdbc", LexerRules.GENERIC, Denylist.ALL);
  }

  /** The first keywords of statements that only read, in any engine Sonde guards. */
  private static final Set<String> READ_KEYWORDS =
      Set.of(
          "SELECT",
          "WITH",
          "VALUES",
          "TABLE",
          "SHOW",
          "DESCRIBE",
          "DESC",
          "FROM",
          "PIVOT",
          "UNPIVOT",
          "SUMMARIZE");

  /** A table name ending like a file name (data.csv, x.parquet). */
  private static final Pattern FILE_EXTENSION = Pattern.compile("\\.[A-Za-z0-9]{1,8}$");

  private SqlGuard() {}

  /**
   * Returns the one statement to run as a read, or throws a {@link CallerException} saying what was
   * refused and what to use instead; the functions it calls are judged by {@code functions}.
   */
  public static String checkRead(
      String sql,
      Profile profile,
      Mode mode,
      int maxLength,
      EngineParser engineParser,
      FunctionJudge functions) {
    return checkRead(sql, profile, mode, maxLength, engineParser, functions, TableJudge.ANY);
  }

  /**
   * {@link #checkRead} that also has {@code tables} judge what the read names; a judge that looks
   * needs the parse tree, so it is refused with {@link Mode#ENGINE_ONLY}.
   */
  public static String checkRead(
      String sql,
      Profile profile,
      Mode mode,
      int maxLength,
      EngineParser engineParser,
      FunctionJudge functions,
      TableJudge tables) {
    if (mode == Mode.ENGINE_ONLY && tables.judges()) {
      throw new IllegalStateException("an allow-list needs the guard's parse tree");
    }
    try {
      SqlLexer.Scan scan = lex(sql, profile, maxLength, functions);
      String statement = scan.statements().get(0);
      if (mode == Mode.ENGINE_ONLY) {
        // a read-only transaction still lets COPY TO PROGRAM, DO and PREPARE run: the kind of
        // statement, which its first keyword decides, must be a read even here
        if (!READ_KEYWORDS.contains(scan.firstWord())) {
          throw new GuardRefusal(
              scan.firstWord()
                  + " is not a read; execute_query runs SELECT, WITH, VALUES, TABLE, SHOW,"
                  + " DESCRIBE and the engine's read forms (FROM, PIVOT, SUMMARIZE)");
        }
        return statement;
      }
      TablesNamed named = new TablesNamed();
      if (engineParser != null) {
        checkWithEngine(statement, scan.firstWord(), engineParser, functions, named);
      } else {
        // the parser only classifies: strings are data, so a neutral literal spares it escape rules
        checkWithParser(scan.neutral().get(0), functions, named);
      }
      tables.check(named);
      return statement;
    } catch (GuardRefusal refusal) {
      throw new CallerException("rejected: " + refusal.getMessage());
    }
  }

  /**
   * Returns the one statement to run as a write (INSERT, UPDATE, DELETE, MERGE), or throws a {@link
   * CallerException} saying what was refused.
   */
  public static String checkWrite(
      String sql, Profile profile, int maxLength, FunctionJudge functions) {
    try {
      SqlLexer.Scan scan = lex(sql, profile, maxLength, functions);
      Statement parsed;
      try {
        parsed = parse(scan.neutral().get(0));
      } catch (JSQLParserException | RuntimeException e) {
        throw new GuardRefusal(
            "the statement could not be parsed as an INSERT, UPDATE, DELETE or MERGE; check its syntax");
      }
      String kind = parsed.getClass().getSimpleName();
      if (parsed instanceof Select
          || parsed instanceof ShowStatement
          || parsed instanceof DescribeStatement) {
        throw new GuardRefusal("this is a read; use execute_query");
      }
      if (!kind.matches("Insert|Update|Delete|Merge|Upsert")) {
        throw new GuardRefusal(
            kind
                + " is not allowed here: execute_write runs one INSERT, UPDATE, DELETE or MERGE (schema changes and session commands are refused)");
      }
      return scan.statements().get(0);
    } catch (GuardRefusal refusal) {
      throw new CallerException("rejected: " + refusal.getMessage());
    }
  }

  private static SqlLexer.Scan lex(
      String sql, Profile profile, int maxLength, FunctionJudge functions) {
    if (sql == null || sql.isBlank()) {
      throw new GuardRefusal("the SQL is empty; send one SELECT statement");
    }
    if (sql.length() > maxLength) {
      throw new GuardRefusal(
          "the SQL is "
              + sql.length()
              + " characters; the limit for this connection is "
              + maxLength);
    }
    SqlLexer.Scan scan = SqlLexer.scan(sql, profile.lexer());
    if (scan.problem() != null) {
      throw new GuardRefusal(scan.problem());
    }
    if (scan.statements().isEmpty()) {
      throw new GuardRefusal("the SQL holds only comments; send one SELECT statement");
    }
    if (scan.statements().size() > 1) {
      throw new GuardRefusal(
          "only one statement per call is allowed, found "
              + scan.statements().size()
              + "; send them one at a time");
    }
    for (String call : scan.calls()) {
      refuseIfDenied(call, functions);
    }
    for (String name : scan.names()) {
      String refusal = functions.nameRefusal(name);
      if (refusal != null) {
        throw new GuardRefusal(refusal);
      }
    }
    return scan;
  }

  /**
   * Parses on the calling (worker) thread: CCJSqlParserUtil.parse hands every parse to an executor
   * for its timeout, which costs 0.25 to 1 ms; the SQL length limit bounds the work instead.
   */
  static Statement parse(String sql) throws JSQLParserException {
    try {
      return CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(false).Statement();
    } catch (Exception simple) {
      try {
        return CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(true).Statement();
      } catch (Exception complex) {
        throw new JSQLParserException(complex.getMessage(), complex);
      }
    }
  }

  static void refuseIfDenied(String function, FunctionJudge functions) {
    String refusal = functions.refusal(function);
    if (refusal != null) {
      throw new GuardRefusal(refusal);
    }
  }

  private static void checkWithParser(
      String statement, FunctionJudge functions, TablesNamed named) {
    Statement parsed;
    try {
      parsed = parse(statement);
    } catch (JSQLParserException | RuntimeException e) {
      throw new GuardRefusal(
          "the statement could not be parsed as a read-only query; check its syntax"
              + " (a connection with guard: engine-only leaves this check to the database)");
    }
    if (parsed instanceof Select select) {
      select.accept(
          (net.sf.jsqlparser.statement.select.SelectVisitor<Void>)
              new ReadOnlyWalker(functions, named),
          (Object) null);
      return;
    }
    if (parsed instanceof DescribeStatement describe) {
      named.table(
          describe.getTable().getUnquotedDatabaseName(),
          describe.getTable().getUnquotedSchemaName(),
          describe.getTable().getUnquotedName());
      return;
    }
    if (parsed instanceof ShowColumnsStatement columns) {
      named.table(columns.getTableName());
      return;
    }
    if (parsed instanceof ShowStatement || parsed instanceof ShowTablesStatement) {
      named.listsCatalogue();
      return;
    }
    throw new GuardRefusal(whatItIs(parsed));
  }

  private static String whatItIs(Statement parsed) {
    String kind = parsed.getClass().getSimpleName();
    if (kind.matches("Insert|Update|Delete|Merge|Upsert|Replace")) {
      return kind.toUpperCase(Locale.ROOT)
          + " changes data; execute_query only reads (use execute_write where the connection allows writes)";
    }
    if (kind.startsWith("Create")
        || kind.startsWith("Alter")
        || kind.startsWith("Drop")
        || kind.equals("Truncate")
        || kind.equals("Comment")
        || kind.startsWith("Rename")
        || kind.equals("Grant")) {
      return "schema changes (" + kind + ") are not allowed";
    }
    if (kind.matches("Commit|RollbackStatement|SavepointStatement|Block|Transaction.*|Begin.*")) {
      return "transaction control is not allowed; every read runs in its own read-only transaction";
    }
    if (kind.equals("SetStatement")
        || kind.equals("ResetStatement")
        || kind.equals("UseStatement")) {
      return "SET and USE change the session; they are not allowed";
    }
    if (kind.equals("ExplainStatement")) {
      return "EXPLAIN goes through explain_query";
    }
    return kind
        + " is not a read; execute_query runs SELECT, WITH ... SELECT, VALUES, SHOW and DESCRIBE";
  }

  private static void checkWithEngine(
      String statement,
      String firstWord,
      EngineParser parser,
      FunctionJudge functions,
      TablesNamed named) {
    JsonObject ast = engineParse(statement, parser);
    if (ast.getBoolean("error", false)) {
      String message = ast.getString("error_message", "");
      if (message.startsWith("Only SELECT") && "PIVOT".equals(firstWord)) {
        // DuckDB plans a PIVOT without an IN list as several statements, and its JDBC driver runs
        // all but the last of them unchecked: only the form it parses as one query is sent
        throw new GuardRefusal(
            "a PIVOT without an IN list runs as several statements, which Sonde never sends;"
                + " name the values: PIVOT t ON c IN ('a', 'b') USING ... (SELECT DISTINCT c"
                + " FROM t lists them)");
      }
      throw new GuardRefusal(
          message.startsWith("Only SELECT")
              ? "only reads are allowed: SELECT, WITH, VALUES, FROM, PIVOT, SUMMARIZE, DESCRIBE, SHOW (use execute_write for changes, explain_query for plans)"
              : "the engine refused the statement: " + message);
    }
    JsonArray statements = ast.getJsonArray("statements", new JsonArray());
    if (statements.size() != 1) {
      throw new GuardRefusal("only one statement per call is allowed, found " + statements.size());
    }
    walk(statements.getValue(0), functions, named);
  }

  private static JsonObject engineParse(String statement, EngineParser parser) {
    try {
      return parser.parse(statement);
    } catch (Exception e) {
      throw new GuardRefusal(
          "the statement could not be checked by the engine's parser; check its syntax");
    }
  }

  /**
   * Every function the tree calls, and every table named by what looks like a file or URL; what it
   * names is noted in {@code named}.
   */
  private static void walk(Object node, FunctionJudge functions, TablesNamed named) {
    if (node instanceof JsonObject object) {
      note(object, named);
      if ("FUNCTION".equals(object.getString("class"))
          || "FUNCTION".equals(object.getString("type"))) {
        String name = object.getString("function_name");
        if (name != null) {
          refuseIfDenied(name, functions);
        }
      }
      if ("BASE_TABLE".equals(object.getString("type"))) {
        String table = object.getString("table_name", "");
        if (table.contains("/")
            || table.contains("\\")
            || table.contains(":")
            || FILE_EXTENSION.matcher(table).find()) {
          throw new GuardRefusal(
              Quote.of(table) + " looks like a file or URL; queries read tables, not files");
        }
      }
      object.forEach(entry -> walk(entry.getValue(), functions, named));
    } else if (node instanceof JsonArray array) {
      array.forEach(item -> walk(item, functions, named));
    }
  }

  /** What one node of DuckDB's tree names: a table, a WITH name, a table function, a listing. */
  private static void note(JsonObject node, TablesNamed named) {
    String type = node.getString("type", "");
    switch (type) {
      case "BASE_TABLE" ->
          named.table(
              node.getString("catalog_name"),
              node.getString("schema_name"),
              node.getString("table_name"));
      case "TABLE_FUNCTION" -> {
        JsonObject function = node.getJsonObject("function");
        if (function != null) {
          named.tableFunction(function.getString("function_name"));
        }
      }
      // SHOW TABLES and its kin have no query under them: they list the catalogue
      case "SHOW_REF" -> {
        if (node.getValue("query") == null) {
          named.listsCatalogue();
        }
      }
      default -> {
        // names in neither: expressions, joins, modifiers
      }
    }
    JsonObject ctes = node.getJsonObject("cte_map");
    if (ctes != null) {
      for (Object entry : ctes.getJsonArray("map", new JsonArray())) {
        if (entry instanceof JsonObject cte) {
          named.withName(cte.getString("key"));
        }
      }
    }
  }
}
