package dev.sonde.db.guard;

/**
 * How an engine reads SQL text, as far as the guard must know it: which comments, quotes and
 * escapes exist. Getting any of these wrong lets text hide from the guard, so each is explicit.
 *
 * @param hashComments {@code #} starts a line comment (MySQL)
 * @param dashCommentNeedsSpace {@code --} is a comment only when followed by white space (MySQL)
 * @param nestedBlockComments block comments nest (PostgreSQL, DuckDB)
 * @param backslashEscapesInStrings {@code \'} does not end a string (MySQL)
 * @param doubleQuotedStrings {@code "..."} is a string, not an identifier (MySQL without
 *     ANSI_QUOTES)
 * @param dollarQuotes {@code $tag$...$tag$} strings (PostgreSQL, DuckDB)
 * @param executableComments {@code /*! ... *}{@code /} is executed, so it is refused (MySQL)
 * @param backtickIdentifiers {@code `...`} identifiers (MySQL, SQLite)
 * @param bracketIdentifiers {@code [...]} identifiers (SQLite)
 */
public record LexerRules(
    boolean hashComments,
    boolean dashCommentNeedsSpace,
    boolean nestedBlockComments,
    boolean backslashEscapesInStrings,
    boolean doubleQuotedStrings,
    boolean dollarQuotes,
    boolean executableComments,
    boolean backtickIdentifiers,
    boolean bracketIdentifiers) {

  public static final LexerRules POSTGRES =
      new LexerRules(false, false, true, false, false, true, false, false, false);
  public static final LexerRules DUCKDB = POSTGRES;
  public static final LexerRules MYSQL =
      new LexerRules(true, true, false, true, true, false, true, true, false);
  public static final LexerRules SQLITE =
      new LexerRules(false, false, false, false, false, false, false, true, true);
  public static final LexerRules H2 =
      new LexerRules(false, false, true, false, false, true, false, false, false);
}
