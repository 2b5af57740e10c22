package dev.sonde.db.guard;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits SQL into statements the way the engine will, and collects the names of every function
 * called ({@code name(} and {@code "name"(}, after any schema qualifier). Unclosed quotes and
 * comments are errors, never guesses.
 */
public final class SqlLexer {
  /**
   * The statements (comments kept, blank ones dropped); the same with comments blanked out; the
   * same with strings also replaced by {@code 's'} (for parsers that only need the shape); the
   * functions called; the first word; or the problem.
   */
  public record Scan(
      List<String> statements,
      List<String> withoutComments,
      List<String> neutral,
      Set<String> calls,
      String firstWord,
      String problem) {}

  private final String sql;
  private final LexerRules rules;
  private final List<String> statements = new ArrayList<>();
  private final List<String> withoutComments = new ArrayList<>();
  private final List<String> neutral = new ArrayList<>();
  private final StringBuilder plainText = new StringBuilder();
  private final StringBuilder neutralText = new StringBuilder();
  private final Set<String> calls = new LinkedHashSet<>();
  private int pos;
  private int statementStart;
  private boolean statementHasContent;
  private String firstWord;
  private String pendingName;
  private boolean consumedString;
  private boolean ambiguousQuote;

  private SqlLexer(String sql, LexerRules rules) {
    this.sql = sql;
    this.rules = rules;
  }

  public static Scan scan(String sql, LexerRules rules) {
    SqlLexer lexer = new SqlLexer(sql, rules);
    String problem = lexer.run();
    return new Scan(
        lexer.statements,
        lexer.withoutComments,
        lexer.neutral,
        lexer.calls,
        lexer.firstWord,
        problem);
  }

  private String run() {
    if (sql.indexOf('\0') >= 0) {
      // a C engine stops reading at NUL: text after it would be invisible here but not there
      return "NUL characters are not allowed in SQL";
    }
    int n = sql.length();
    while (pos < n) {
      char c = sql.charAt(pos);
      char next = pos + 1 < n ? sql.charAt(pos + 1) : '\0';
      int start = pos;
      if (Character.isWhitespace(c)) {
        pos++;
        keep(start, false);
      } else if (c == '-'
          && next == '-'
          && (!rules.dashCommentNeedsSpace()
              || pos + 2 >= n
              || Character.isWhitespace(sql.charAt(pos + 2)))) {
        skipLine();
        blank();
      } else if (c == '#' && rules.hashComments()) {
        skipLine();
        blank();
      } else if (c == '/' && next == '*') {
        if (rules.executableComments() && pos + 2 < n && sql.charAt(pos + 2) == '!') {
          return "MySQL executable comments (/*! ... */) are not allowed";
        }
        if (!skipBlockComment()) {
          return "unclosed comment";
        }
        blank();
      } else if (c == ';') {
        endStatement(pos);
        pos++;
        statementStart = pos;
      } else {
        content();
        String problem = token(c, next);
        if (problem != null) {
          return problem;
        }
        if (ambiguousQuote) {
          return "a backslash before a quote is read differently by MySQL servers (sql_mode"
              + " NO_BACKSLASH_ESCAPES); write a quote inside a string as ''";
        }
        keep(start, consumedString);
      }
    }
    endStatement(n);
    return null;
  }

  private String token(char c, char next) {
    consumedString = false;
    if (c == '\'') {
      consumedString = true;
      pendingName = null;
      return skipString('\'', rules.backslashEscapesInStrings()) ? null : "unclosed string literal";
    }
    if ((c == 'E' || c == 'e')
        && next == '\''
        && (rules.dollarQuotes() || rules.nestedBlockComments())
        && !isWordChar(previous())) {
      pos++;
      pendingName = null;
      consumedString = true;
      return skipString('\'', true) ? null : "unclosed string literal";
    }
    if (c == '"') {
      int start = pos + 1;
      boolean closed =
          skipString('"', rules.doubleQuotedStrings() && rules.backslashEscapesInStrings());
      if (!closed) {
        return rules.doubleQuotedStrings()
            ? "unclosed string literal"
            : "unclosed quoted identifier";
      }
      pendingName =
          rules.doubleQuotedStrings() ? null : sql.substring(start, pos - 1).replace("\"\"", "\"");
      return null;
    }
    if (c == '`' && rules.backtickIdentifiers()) {
      int start = pos + 1;
      if (!skipString('`', false)) {
        return "unclosed quoted identifier";
      }
      pendingName = sql.substring(start, pos - 1).replace("``", "`");
      return null;
    }
    if (c == '[' && rules.bracketIdentifiers()) {
      int end = sql.indexOf(']', pos + 1);
      if (end < 0) {
        return "unclosed quoted identifier";
      }
      pendingName = sql.substring(pos + 1, end);
      pos = end + 1;
      return null;
    }
    if (c == '$' && rules.dollarQuotes() && !Character.isDigit(next)) {
      int close = sql.indexOf('$', pos + 1);
      String tag = close < 0 ? null : sql.substring(pos, close + 1);
      if (tag != null
          && tag.substring(1, tag.length() - 1)
              .chars()
              .allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_')) {
        int end = sql.indexOf(tag, close + 1);
        if (end < 0) {
          return "unclosed dollar-quoted string";
        }
        pos = end + tag.length();
        pendingName = null;
        consumedString = true;
        return null;
      }
    }
    if (isWordStart(c)) {
      int start = pos;
      while (pos < sql.length() && isWordChar(sql.charAt(pos))) {
        pos++;
      }
      String word = sql.substring(start, pos);
      if (firstWord == null) {
        firstWord = word.toUpperCase(Locale.ROOT);
      }
      pendingName = word;
      return null;
    }
    if (c == '(' && pendingName != null) {
      calls.add(pendingName.toLowerCase(Locale.ROOT));
    }
    if (c != '.') {
      pendingName = null;
    }
    pos++;
    return null;
  }

  /**
   * Copies what was just consumed. In the neutral text a string becomes 's', a [bracketed]
   * identifier becomes "quoted", and SQLite's GLOB, REGEXP and MATCH read as LIKE: the parser only
   * classifies the statement, and it knows none of these.
   */
  private void keep(int start, boolean string) {
    String text = sql.substring(start, pos);
    plainText.append(text);
    if (string) {
      neutralText.append("'s'");
    } else if (rules.bracketIdentifiers() && text.startsWith("[") && text.endsWith("]")) {
      neutralText.append('"').append(text, 1, text.length() - 1).append('"');
    } else if (rules.bracketIdentifiers() && text.matches("(?i)GLOB|REGEXP|MATCH")) {
      neutralText.append("LIKE");
    } else {
      neutralText.append(text);
    }
  }

  private void blank() {
    plainText.append(' ');
    neutralText.append(' ');
  }

  private char previous() {
    return pos > 0 ? sql.charAt(pos - 1) : '\0';
  }

  private void content() {
    statementHasContent = true;
  }

  private void endStatement(int end) {
    if (statementHasContent) {
      statements.add(sql.substring(statementStart, end).trim());
      withoutComments.add(plainText.toString().trim());
      neutral.add(neutralText.toString().trim());
    }
    plainText.setLength(0);
    neutralText.setLength(0);
    statementHasContent = false;
    pendingName = null;
  }

  private void skipLine() {
    int end = sql.indexOf('\n', pos);
    pos = end < 0 ? sql.length() : end + 1;
  }

  private boolean skipBlockComment() {
    int depth = 0;
    while (pos < sql.length()) {
      if (sql.startsWith("/*", pos)) {
        depth = rules.nestedBlockComments() ? depth + 1 : Math.max(depth, 1);
        pos += 2;
      } else if (sql.startsWith("*/", pos)) {
        depth--;
        pos += 2;
        if (depth == 0) {
          return true;
        }
      } else {
        pos++;
      }
    }
    return false;
  }

  /** Skips a quoted run starting at {@code pos}; a doubled quote is an escaped quote. */
  private boolean skipString(char quote, boolean backslash) {
    pos++;
    while (pos < sql.length()) {
      char c = sql.charAt(pos);
      if (backslash && c == '\\') {
        if (rules.backslashEscapesInStrings()
            && pos + 1 < sql.length()
            && sql.charAt(pos + 1) == quote) {
          // MySQL reads \' by its sql_mode (NO_BACKSLASH_ESCAPES), which the guard cannot see
          ambiguousQuote = true;
        }
        pos += 2;
      } else if (c == quote) {
        if (pos + 1 < sql.length() && sql.charAt(pos + 1) == quote) {
          pos += 2;
        } else {
          pos++;
          return true;
        }
      } else {
        pos++;
      }
    }
    return false;
  }

  private static boolean isWordStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
