package dev.sonde.db.guard;

/**
 * How an engine reads SQL text, as far as the guard must know it: which comments, quotes and
 * escapes exist. Getting any of these wrong lets text hide from the guard, so each is explicit, and
 * each was checked against the engine itself (see SqlLexerDifferentialTest).
 *
 * @param hashComments {@code #} starts a line comment (MySQL)
 * @param dashCommentNeedsSpace {@code --} is a comment only when followed by white space or a
 *     control character (MySQL)
 * @param nestedBlockComments block comments nest (PostgreSQL, DuckDB, H2)
 * @param backslashEscapesInStrings {@code \'} does not end a string (MySQL)
 * @param doubleQuotedStrings {@code "..."} is a string, not an identifier (MySQL without
 *     ANSI_QUOTES)
 * @param dollarQuotes {@code $$...$$} strings (PostgreSQL, DuckDB, H2)
 * @param executableComments {@code /*! ... *}{@code /} is executed, so it is refused (MySQL)
 * @param backtickIdentifiers {@code `...`} identifiers (MySQL, SQLite)
 * @param bracketIdentifiers {@code [...]} identifiers (SQLite)
 * @param lineCommentEndsAtCr a carriage return ends a line comment as a newline does (PostgreSQL,
 *     DuckDB, H2; not SQLite or MySQL, which end it only at a newline)
 * @param slashSlashComments {@code //} starts a line comment (H2)
 * @param escapeStrings {@code E'...'} strings with backslash escapes, which a string continued on
 *     the next line keeps (PostgreSQL, DuckDB)
 * @param unicodeEscapes {@code U&'...'} strings and {@code U&"..."} identifiers, with an optional
 *     {@code UESCAPE 'c'} (PostgreSQL, H2; DuckDB reads {@code U&"x"} as {@code U & "x"} and
 *     refuses an escape, so there they are read as the letter U, an ampersand and a quote)
 * @param dollarTags a dollar quote may carry a tag, {@code $tag$...$tag$}, spelt like an identifier
 *     (PostgreSQL, DuckDB; H2 has only {@code $$})
 * @param postgresWords identifiers are spelt as PostgreSQL's scanner spells them: ASCII letters,
 *     digits, {@code _}, {@code $} and every non-ASCII character; unquoted ones fold ASCII letters
 *     to lower case, quoted ones are exact (PostgreSQL, DuckDB; elsewhere the lexer splits words at
 *     anything that is not a letter or digit and folds every name to lower case, which may find
 *     more calls than the engine, never fewer)
 * @param unicodeSpaces the non-ASCII spaces DuckDB turns into a space before it parses (U+00A0,
 *     U+2000 to U+200B, U+202F, U+205F, U+2060, U+3000, U+FEFF) are refused outside strings, quoted
 *     names and comments: DuckDB's pass that replaces them keeps its own idea of where quotes are
 *     (a {@code $tag$} inside a comment stops it), so the same character is a space in one text and
 *     part of a name in another (DuckDB)
 * @param quotedNamesFold quoted identifiers name functions without regard to case (DuckDB)
 * @param tclVariables {@code $name(...)}, {@code @name(...)}, {@code :name(...)} and {@code
 *     #name(...)} are parameters whose parentheses may hold anything but white space (SQLite)
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
    boolean bracketIdentifiers,
    boolean lineCommentEndsAtCr,
    boolean slashSlashComments,
    boolean escapeStrings,
    boolean unicodeEscapes,
    boolean dollarTags,
    boolean postgresWords,
    boolean unicodeSpaces,
    boolean quotedNamesFold,
    boolean tclVariables) {

  public static final LexerRules POSTGRES =
      new LexerRules(
          false, false, true, false, false, true, false, false, false, true, false, true, true,
          true, true, false, false, false);
  public static final LexerRules DUCKDB =
      new LexerRules(
          false, false, true, false, false, true, false, false, false, true, false, true, false,
          true, true, true, true, false);

  /**
   * An engine Sonde has no dialect for: PostgreSQL's rules, but every quoted name folded to lower
   * case, which may find more calls than the engine, never fewer.
   */
  public static final LexerRules GENERIC =
      new LexerRules(
          false, false, true, false, false, true, false, false, false, true, false, true, true,
          true, true, false, true, false);

  public static final LexerRules MYSQL =
      new LexerRules(
          true, true, false, true, true, false, true, true, false, false, false, false, false,
          false, false, false, true, false);
  public static final LexerRules SQLITE =
      new LexerRules(
          false, false, false, false, false, false, false, true, true, false, false, false, false,
          false, false, false, true, true);
  public static final LexerRules H2 =
      new LexerRules(
          false, false, true, false, false, true, false, false, false, true, true, false, true,
          false, false, false, true, false);
}
