package dev.sonde.chatbi;

import dev.sonde.core.Language;

/**
 * Where a question mentions a word: the one test of "the question says it" retrieval and parsing
 * share.
 */
final class Mentions {
  private Mentions() {}

  /** Where {@code word} occurs in {@code q}; Latin words only as whole words, CJK anywhere. */
  static int indexOf(String q, String word) {
    boolean cjk = word.codePoints().anyMatch(Language::isCjk);
    for (int at = q.indexOf(word); at >= 0; at = q.indexOf(word, at + 1)) {
      if (cjk) {
        return at;
      }
      boolean startOk = at == 0 || !Character.isLetterOrDigit(q.charAt(at - 1));
      int end = at + word.length();
      // a plural still names it: "agents", "boxes"
      if (q.startsWith("es", end)
          && (end + 2 == q.length() || !Character.isLetterOrDigit(q.charAt(end + 2)))) {
        end += 2;
      } else if (q.startsWith("s", end)) {
        end += 1;
      }
      boolean endOk = end == q.length() || !Character.isLetterOrDigit(q.charAt(end));
      if (startOk && endOk) {
        return at;
      }
    }
    return -1;
  }
}
