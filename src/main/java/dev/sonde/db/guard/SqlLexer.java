package dev.sonde.db.guard;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits SQL into statements the way the engine will, and collects the names of every function
 * called ({@code name(} and {@code "name"(}, after any schema qualifier), decoded and case-folded
 * as the engine does. Unclosed quotes and comments, malformed escapes and anything the engine reads
 * in a way this lexer does not model are errors, never guesses.
 */
public final class SqlLexer {
  /**
   * The statements (comments kept, blank ones dropped); the same with comments blanked out; the
   * same with strings also replaced by {@code 's'} and escaped identifiers written plainly (for
   * parsers that only need the shape); the functions called; every name it holds (unquoted); the
   * first word; whether every parenthesis outside strings and comments closes one opened before it;
   * or the problem.
   */
  public record Scan(
      List<String> statements,
      List<String> withoutComments,
      List<String> neutral,
      Set<String> calls,
      Set<String> names,
      String firstWord,
      boolean balanced,
      String problem) {}

  private final String sql;
  private final LexerRules rules;
  private final List<String> statements = new ArrayList<>();
  private final List<String> withoutComments = new ArrayList<>();
  private final List<String> neutral = new ArrayList<>();
  private final StringBuilder plainText = new StringBuilder();
  private final StringBuilder neutralText = new StringBuilder();
  private final Set<String> calls = new LinkedHashSet<>();
  private final Set<String> names = new LinkedHashSet<>();

  /** Where a {@code ?} stands outside strings, identifiers and comments. */
  private final List<Integer> questionMarks = new ArrayList<>();

  private int pos;
  private int depth;
  private boolean closedUnopened;
  private int statementStart;
  private boolean statementHasContent;
  private String firstWord;
  private String pendingName;
  private boolean consumedString;
  private boolean ambiguousQuote;

  /** A decoded identifier to write in place of the token just read (U&amp;"..."), or null. */
  private String decodedIdentifier;

  private SqlLexer(String sql, LexerRules rules) {
    this.sql = sql;
    this.rules = rules;
  }

  /** Notes {@code name} as a name the text holds, for the judge of names that call (x.f). */
  private String named(String name) {
    names.add(name);
    return name;
  }

  public static Scan scan(String sql, LexerRules rules) {
    SqlLexer lexer = new SqlLexer(sql, rules);
    String problem = lexer.run();
    return new Scan(
        lexer.statements,
        lexer.withoutComments,
        lexer.neutral,
        lexer.calls,
        lexer.names,
        lexer.firstWord,
        !lexer.closedUnopened && lexer.depth == 0,
        problem);
  }

  /**
   * {@code statement} with each {@code ?} that stands outside strings, quoted identifiers, dollar
   * quotes and comments doubled, for the PostgreSQL JDBC driver: it takes a lone {@code ?} in a
   * prepared statement for a parameter and {@code ??} for the character, so the jsonb operators
   * {@code ?}, {@code ?|} and {@code ?&} run as written. The text is one the guard accepted; one it
   * would not read is returned unchanged.
   */
  public static String escapeJdbcPlaceholders(String statement, LexerRules rules) {
    if (statement.indexOf('?') < 0) {
      return statement;
    }
    SqlLexer lexer = new SqlLexer(statement, rules);
    if (lexer.run() != null || lexer.questionMarks.isEmpty()) {
      return statement;
    }
    StringBuilder out = new StringBuilder(statement.length() + lexer.questionMarks.size());
    int from = 0;
    for (int at : lexer.questionMarks) {
      out.append(statement, from, at + 1).append('?');
      from = at + 1;
    }
    return out.append(statement, from, statement.length()).toString();
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
      if (unicodeSpace(c)) {
        return "DuckDB reads the non-ASCII space "
            + show(c)
            + " outside quotes as a space or as part of a name, depending on the text before"
            + " it; write an ASCII space";
      } else if (isSpace(c)) {
        pos++;
        keep(start, false);
      } else if (c == '-' && next == '-' && dashStartsComment(pos)) {
        skipLine();
        blank();
      } else if ((c == '#' && rules.hashComments())
          || (c == '/' && next == '/' && rules.slashSlashComments())) {
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
        decodedIdentifier = null;
        String problem = token(c, next);
        if (problem != null) {
          return problem;
        }
        if (ambiguousQuote) {
          return "a backslash before a quote is read differently by MySQL servers (sql_mode"
              + " NO_BACKSLASH_ESCAPES); write a quote inside a string as ''";
        }
        if (decodedIdentifier != null) {
          String quoted = '"' + decodedIdentifier.replace("\"", "\"\"") + '"';
          plainText.append(quoted);
          neutralText.append(quoted);
        } else {
          keep(start, consumedString);
        }
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
      return quotedString(rules.backslashEscapesInStrings());
    }
    if ((c == 'E' || c == 'e') && next == '\'' && rules.escapeStrings()) {
      pos++;
      pendingName = null;
      consumedString = true;
      return quotedString(true);
    }
    if ((c == 'U' || c == 'u')
        && next == '&'
        && rules.unicodeEscapes()
        && pos + 2 < sql.length()
        && (sql.charAt(pos + 2) == '\'' || sql.charAt(pos + 2) == '"')) {
      return unicodeEscaped();
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
          rules.doubleQuotedStrings()
              ? null
              : named(quotedName(sql.substring(start, pos - 1).replace("\"\"", "\"")));
      return null;
    }
    if (c == '`' && rules.backtickIdentifiers()) {
      int start = pos + 1;
      if (!skipString('`', false)) {
        return "unclosed quoted identifier";
      }
      pendingName = named(quotedName(sql.substring(start, pos - 1).replace("``", "`")));
      return null;
    }
    if (c == '[' && rules.bracketIdentifiers()) {
      int end = sql.indexOf(']', pos + 1);
      if (end < 0) {
        return "unclosed quoted identifier";
      }
      pendingName = named(quotedName(sql.substring(pos + 1, end)));
      pos = end + 1;
      return null;
    }
    if (c == '$' && rules.dollarQuotes()) {
      int close = dollarTagEnd(pos);
      if (close >= 0) {
        String tag = sql.substring(pos, close + 1);
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
    if (rules.tclVariables() && (c == '$' || c == '@' || c == ':' || c == '#')) {
      int end = sqliteVariableEnd(pos);
      if (end == -2) {
        return "a parameter's parentheses are not closed before white space";
      }
      if (end > 0) {
        pos = end;
        pendingName = null;
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
      pendingName = named(unquotedName(word));
      return null;
    }
    if (c == '(' && pendingName != null) {
      calls.add(pendingName);
    }
    if (c == '(') {
      depth++;
    } else if (c == ')' && --depth < 0) {
      closedUnopened = true;
    }
    if (c == '?') {
      questionMarks.add(pos);
    }
    if (c != '.') {
      pendingName = null;
    }
    pos++;
    return null;
  }

  /**
   * A single-quoted string at {@code pos}, and in PostgreSQL every string that continues it: a
   * string that follows after white space holding a newline is the same literal, read with the same
   * escapes (so {@code E'a'}, newline, {@code '\''} is one string).
   */
  private String quotedString(boolean backslash) {
    if (!skipString('\'', backslash)) {
      return "unclosed string literal";
    }
    while (rules.escapeStrings()) {
      int continued = continuation(pos);
      if (continued < 0) {
        break;
      }
      pos = continued;
      if (!skipString('\'', backslash)) {
        return "unclosed string literal";
      }
    }
    return null;
  }

  /**
   * Where a string continues after the one ending at {@code i} (the index of its next opening
   * quote), or -1: PostgreSQL's {@code whitespace_with_newline}, which allows line comments but not
   * block comments.
   */
  private int continuation(int i) {
    boolean newline = false;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\n' || c == '\r') {
        newline = true;
        i++;
      } else if (c == ' ' || c == '\t' || c == '\f' || c == '\u000b') {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        i = lineEnd(i);
      } else if (c == '\'' && newline) {
        return i;
      } else {
        return -1;
      }
    }
    return -1;
  }

  /**
   * {@code U&'...'} or {@code U&"..."} at {@code pos}, with any continuation and an optional {@code
   * UESCAPE 'c'} after it: an identifier is decoded, so the name called is the one the engine
   * calls; a string is checked, since the engine refuses a bad escape and so does the guard.
   */
  private String unicodeEscaped() {
    char quote = sql.charAt(pos + 2);
    pos += 2;
    int start = pos;
    StringBuilder body = new StringBuilder();
    if (!skipString(quote, false)) {
      return quote == '"' ? "unclosed quoted identifier" : "unclosed string literal";
    }
    body.append(sql, start + 1, pos - 1);
    if (quote == '\'') {
      while (rules.escapeStrings()) {
        int continued = continuation(pos);
        if (continued < 0) {
          break;
        }
        pos = continued;
        int from = pos;
        if (!skipString('\'', false)) {
          return "unclosed string literal";
        }
        body.append(sql, from + 1, pos - 1);
      }
    }
    String doubled = String.valueOf(quote) + quote;
    String value = body.toString().replace(doubled, String.valueOf(quote));
    char escape = '\\';
    int afterLiteral = pos;
    int keyword = skipSpaceAndComments(pos);
    if (keyword < 0) {
      return "unclosed comment";
    }
    if (sql.regionMatches(true, keyword, "UESCAPE", 0, 7)
        && (keyword + 7 >= sql.length() || !isWordChar(sql.charAt(keyword + 7)))) {
      int string = skipSpaceAndComments(keyword + 7);
      if (string < 0) {
        return "unclosed comment";
      }
      if (string + 2 >= sql.length()
          || sql.charAt(string) != '\''
          || sql.charAt(string + 2) != '\''
          || (string + 3 < sql.length() && sql.charAt(string + 3) == '\'')) {
        return "UESCAPE must be followed by one character in plain single quotes, such as '!'";
      }
      escape = sql.charAt(string + 1);
      if (Character.digit(escape, 16) >= 0
          || escape == '+'
          || escape == '\''
          || escape == '"'
          || escape > 0x7e
          || escape <= ' ') {
        return "invalid UESCAPE character " + show(escape);
      }
      pos = string + 3;
    } else {
      pos = afterLiteral;
    }
    String decoded = decodeUnicode(value, escape);
    if (decoded == null) {
      return "invalid Unicode escape in a U& "
          + (quote == '"' ? "identifier" : "string")
          + "; write \\ (or the UESCAPE character) and four hexadecimal digits, or \\+ and six,"
          + " as in \\0041 or \\+000041";
    }
    if (quote == '"') {
      if (decoded.isEmpty()) {
        return "zero-length quoted identifier";
      }
      pendingName = named(quotedName(decoded));
      decodedIdentifier = decoded;
      consumedString = false;
    } else {
      pendingName = null;
      consumedString = true;
    }
    return null;
  }

  private static String show(char c) {
    return c >= ' ' && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
  }

  /**
   * The value of a U&amp; literal with its escapes ({@code \0041}, {@code \+000041}, {@code \\}, or
   * the same with the UESCAPE character) replaced; null when an escape is malformed, a surrogate is
   * unpaired, or a code point is zero or out of range, as PostgreSQL refuses them.
   */
  static String decodeUnicode(String value, char escape) {
    if (value.indexOf(escape) < 0) {
      return value;
    }
    StringBuilder out = new StringBuilder(value.length());
    int n = value.length();
    int i = 0;
    int pendingHigh = -1;
    while (i < n) {
      char c = value.charAt(i);
      if (c != escape) {
        if (pendingHigh >= 0) {
          return null;
        }
        out.append(c);
        i++;
        continue;
      }
      int code;
      if (i + 1 < n && value.charAt(i + 1) == escape) {
        if (pendingHigh >= 0) {
          return null;
        }
        out.append(escape);
        i += 2;
        continue;
      } else if (i + 1 < n && value.charAt(i + 1) == '+') {
        code = hex(value, i + 2, 6);
        i += 8;
      } else {
        code = hex(value, i + 1, 4);
        i += 5;
      }
      if (code <= 0 || code > 0x10FFFF) {
        return null;
      }
      if (Character.isHighSurrogate((char) code) && code <= 0xFFFF) {
        if (pendingHigh >= 0) {
          return null;
        }
        pendingHigh = code;
      } else if (Character.isLowSurrogate((char) code) && code <= 0xFFFF) {
        if (pendingHigh < 0) {
          return null;
        }
        out.append((char) pendingHigh).append((char) code);
        pendingHigh = -1;
      } else {
        if (pendingHigh >= 0) {
          return null;
        }
        out.appendCodePoint(code);
      }
    }
    return pendingHigh >= 0 ? null : out.toString();
  }

  /** The {@code digits} hexadecimal digits at {@code from}, or -1. */
  private static int hex(String text, int from, int digits) {
    if (from + digits > text.length()) {
      return -1;
    }
    int value = 0;
    for (int i = from; i < from + digits; i++) {
      int d = Character.digit(text.charAt(i), 16);
      if (d < 0 || text.charAt(i) > 0x7f) {
        return -1;
      }
      value = value * 16 + d;
    }
    return value;
  }

  /**
   * The index of the closing {@code $} of a dollar-quote tag opening at {@code at}, or -1 when
   * there is none: PostgreSQL's tags are spelt like identifiers without {@code $} (a letter, {@code
   * _} or any non-ASCII character, then digits too), so {@code $1} is a parameter; H2's only tag is
   * the empty one.
   */
  private int dollarTagEnd(int at) {
    int n = sql.length();
    int i = at + 1;
    if (i < n && sql.charAt(i) == '$') {
      return i;
    }
    if (!rules.dollarTags() || i >= n || !isTagStart(sql.charAt(i))) {
      return -1;
    }
    i++;
    while (i < n && isTagStart(sql.charAt(i)) || i < n && isAsciiDigit(sql.charAt(i))) {
      i++;
    }
    return i < n && sql.charAt(i) == '$' ? i : -1;
  }

  private boolean isTagStart(char c) {
    return isAsciiLetter(c) || c == '_' || (c >= 0x80 && !unicodeSpace(c));
  }

  /**
   * The end of a SQLite parameter ({@code $name}, {@code @name}, {@code :name}, {@code #name}, with
   * an optional {@code (...)} that may hold anything but white space, and {@code ::} inside the
   * name), -1 when there is no name, -2 when the parentheses are not closed (SQLite refuses it).
   */
  private int sqliteVariableEnd(int at) {
    int n = sql.length();
    int i = at + 1;
    int letters = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (isAsciiLetter(c) || isAsciiDigit(c) || c == '_' || c == '$' || c >= 0x80) {
        letters++;
        i++;
      } else if (c == '(' && letters > 0) {
        i++;
        while (i < n && !sqliteSpace(sql.charAt(i)) && sql.charAt(i) != ')') {
          i++;
        }
        return i < n && sql.charAt(i) == ')' ? i + 1 : -2;
      } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
        i += 2;
      } else {
        break;
      }
    }
    return letters > 0 ? i : -1;
  }

  private static boolean sqliteSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }

  /** A name written without quotes, folded as the engine folds it. */
  private String unquotedName(String word) {
    return rules.postgresWords() ? asciiLower(word) : word.toLowerCase(Locale.ROOT);
  }

  /** A quoted name: exact where the engine keeps its case, else folded (which may find more). */
  private String quotedName(String name) {
    return rules.postgresWords() && !rules.quotedNamesFold() ? name : name.toLowerCase(Locale.ROOT);
  }

  private static String asciiLower(String word) {
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        char[] chars = word.toCharArray();
        for (int j = i; j < chars.length; j++) {
          if (chars[j] >= 'A' && chars[j] <= 'Z') {
            chars[j] = (char) (chars[j] + ('a' - 'A'));
          }
        }
        return new String(chars);
      }
    }
    return word;
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
    } else if (rules.bracketIdentifiers()
        && (text.equalsIgnoreCase("GLOB")
            || text.equalsIgnoreCase("REGEXP")
            || text.equalsIgnoreCase("MATCH"))) {
      neutralText.append("LIKE");
    } else {
      neutralText.append(text);
    }
  }

  private void blank() {
    plainText.append(' ');
    neutralText.append(' ');
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

  /**
   * Whether {@code --} at {@code at} starts a comment: always, except in MySQL, where it must be
   * followed by white space, a control character or the end of the text.
   */
  private boolean dashStartsComment(int at) {
    if (!rules.dashCommentNeedsSpace()) {
      return true;
    }
    if (at + 2 >= sql.length()) {
      return true;
    }
    char after = sql.charAt(at + 2);
    return after <= ' ' || after == 0x7f;
  }

  /** The index of the newline (or carriage return, where it ends a comment) after {@code at}. */
  private int lineEnd(int at) {
    int n = sql.length();
    for (int i = at; i < n; i++) {
      char c = sql.charAt(i);
      if (c == '\n' || (c == '\r' && rules.lineCommentEndsAtCr())) {
        return i;
      }
    }
    return n;
  }

  private void skipLine() {
    int end = lineEnd(pos);
    pos = end < sql.length() ? end + 1 : end;
  }

  /** The index after white space and comments from {@code at}; -1 for an unclosed comment. */
  private int skipSpaceAndComments(int at) {
    int saved = pos;
    pos = at;
    try {
      int n = sql.length();
      while (pos < n) {
        char c = sql.charAt(pos);
        char next = pos + 1 < n ? sql.charAt(pos + 1) : '\0';
        if (isSpace(c)) {
          pos++;
        } else if (c == '-' && next == '-' && dashStartsComment(pos)) {
          skipLine();
        } else if ((c == '#' && rules.hashComments())
            || (c == '/' && next == '/' && rules.slashSlashComments())) {
          skipLine();
        } else if (c == '/' && next == '*') {
          if (!skipBlockComment()) {
            return -1;
          }
        } else {
          break;
        }
      }
      return pos;
    } finally {
      pos = saved;
    }
  }

  private boolean skipBlockComment() {
    if (!rules.nestedBlockComments()) {
      // the first */ after the opening ends it, even one that shares its * ("/*/ ... */")
      int end = sql.indexOf("*/", pos + 2);
      pos = end < 0 ? sql.length() : end + 2;
      return end >= 0;
    }
    int depth = 0;
    while (pos < sql.length()) {
      if (sql.startsWith("/*", pos)) {
        depth++;
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

  /**
   * White space between tokens: PostgreSQL's space, tab, newline, carriage return, form feed and
   * vertical tab; elsewhere whatever Java calls white space or a space character.
   */
  private boolean isSpace(char c) {
    if (rules.postgresWords()) {
      return c == ' ' || (c >= '\t' && c <= '\r');
    }
    return Character.isWhitespace(c) || Character.isSpaceChar(c);
  }

  private boolean unicodeSpace(char c) {
    return rules.unicodeSpaces()
        && c >= 0xa0
        && (c == 0xa0
            || (c >= 0x2000 && c <= 0x200b)
            || c == 0x202f
            || c == 0x205f
            || c == 0x2060
            || c == 0x3000
            || c == 0xfeff);
  }

  private boolean isWordStart(char c) {
    if (rules.postgresWords()) {
      return isAsciiLetter(c) || c == '_' || (c >= 0x80 && !unicodeSpace(c));
    }
    return Character.isLetter(c) || c == '_';
  }

  private boolean isWordChar(char c) {
    if (rules.postgresWords()) {
      return isAsciiLetter(c)
          || isAsciiDigit(c)
          || c == '_'
          || c == '$'
          || (c >= 0x80 && !unicodeSpace(c));
    }
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
