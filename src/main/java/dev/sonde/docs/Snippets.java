package dev.sonde.docs;

import dev.sonde.core.Language;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;

/**
 * Highlighted snippets of one search: the start of a section's prose (else its code) is analysed as
 * the index analysed it, the words that match the question's terms are marked {@code **…**}, and
 * the window of {@value #WINDOW} characters with the most different matched words is kept. CJK text
 * is matched by character bigrams, which needs no segmenter and agrees with the index.
 */
final class Snippets {
  static final int WINDOW = 320;
  static final int SCAN_CHARS = 2000;
  private static final int LEAD = 60;
  private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");

  private final DocsAnalyzers analyzers;
  private final List<QueryReducer.Term> terms;
  private final Map<Analyzer, Set<String>> wanted = new HashMap<>();

  Snippets(DocsAnalyzers analyzers, List<QueryReducer.Term> terms) {
    this.analyzers = analyzers;
    this.terms = terms;
  }

  /** The snippet of a section: its prose, else its code, else the start of either. */
  String of(String prose, String code, Language language) {
    Analyzer proseAnalyzer =
        language == Language.EN ? analyzers.of(Language.EN) : analyzers.bigrams();
    String snippet = highlight(prose, proseAnalyzer);
    if (snippet == null) {
      snippet = highlight(code, analyzers.code());
    }
    if (snippet == null) {
      String text = prose.isBlank() ? code : prose;
      snippet = flatten(text.substring(0, Math.min(text.length(), 2 * WINDOW)));
      if (snippet.length() > WINDOW) {
        snippet = snippet.substring(0, WINDOW - 1) + "…";
      }
    }
    return snippet;
  }

  private String highlight(String text, Analyzer analyzer) {
    if (text == null || text.isBlank()) {
      return null;
    }
    Set<String> tokens = wanted.computeIfAbsent(analyzer, this::queryTokens);
    String scan = text.length() > SCAN_CHARS ? text.substring(0, SCAN_CHARS) : text;
    List<int[]> spans = new ArrayList<>();
    List<String> words = new ArrayList<>();
    for (Tokens token : Tokens.of(analyzer, scan)) {
      if (tokens.contains(token.term())) {
        spans.add(new int[] {token.start(), token.end()});
        words.add(token.term());
      }
    }
    if (spans.isEmpty()) {
      return null;
    }
    int bestStart = 0;
    int bestCount = -1;
    for (int[] span : spans) {
      int start = Math.max(0, span[0] - LEAD);
      Set<String> distinct = new HashSet<>();
      for (int i = 0; i < spans.size(); i++) {
        if (spans.get(i)[0] >= start && spans.get(i)[1] <= start + WINDOW) {
          distinct.add(words.get(i));
        }
      }
      if (distinct.size() > bestCount) {
        bestCount = distinct.size();
        bestStart = start;
      }
    }
    return render(text, spans, bestStart);
  }

  private static String render(String text, List<int[]> spans, int start) {
    int begin = start;
    while (begin > 0 && begin > start - 20 && !Character.isWhitespace(text.charAt(begin - 1))) {
      begin--;
    }
    int end = Math.min(text.length(), begin + WINDOW);
    StringBuilder out = new StringBuilder(begin > 0 ? "…" : "");
    int at = begin;
    int previousEnd = -1;
    for (int[] span : spans) {
      if (span[0] < at || span[1] > end) {
        continue;
      }
      out.append(flatten(text.substring(at, span[0])));
      if (span[0] == previousEnd
          && out.length() >= 2
          && out.substring(out.length() - 2).equals("**")) {
        out.setLength(out.length() - 2);
        out.append(text, span[0], span[1]).append("**");
      } else {
        out.append("**").append(text, span[0], span[1]).append("**");
      }
      previousEnd = span[1];
      at = span[1];
    }
    out.append(flatten(text.substring(at, end)));
    if (end < text.length()) {
      out.append("…");
    }
    return out.toString().strip();
  }

  private Set<String> queryTokens(Analyzer analyzer) {
    Set<String> out = new HashSet<>();
    for (QueryReducer.Term term : terms) {
      out.addAll(Tokens.terms(analyzer, term.text()));
    }
    return out;
  }

  private static String flatten(String text) {
    return WHITE_SPACE.matcher(text).replaceAll(" ");
  }
}
