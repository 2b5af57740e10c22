package dev.sonde.core;

/**
 * A caller's value quoted in a message, cut to a readable length: an error answers what to change,
 * it never hands a megabyte of the caller's own text back.
 */
public final class Quote {
  /** The characters of a quoted value kept before the ellipsis. */
  public static final int MAX_QUOTED = 80;

  /** What marks a cut, in quotes, truncated values and plans alike. */
  public static final String ELLIPSIS = "…";

  private Quote() {}

  /** {@code 'value'}, its first {@link #MAX_QUOTED} characters and an ellipsis when longer. */
  public static String of(String value) {
    return "'" + cut(value, MAX_QUOTED) + "'";
  }

  /** {@code text} kept to {@code max} characters, an ellipsis marking a cut. */
  public static String cut(String text, int max) {
    if (text == null || text.length() <= max) {
      return String.valueOf(text);
    }
    if (max <= 0) {
      return ELLIPSIS;
    }
    // never split a surrogate pair: half a character is not text
    int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
    return text.substring(0, end) + ELLIPSIS;
  }
}
