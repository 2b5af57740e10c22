package dev.sonde.docs;

import dev.sonde.core.Language;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * Reduces a question to the terms worth searching for. Quoted and back-ticked text, runs of
 * upper-case SQL keywords ({@code GROUP BY ALL}) and known SQL phrases stay whole; identifiers
 * ({@code arg_max}, {@code read_csv()}) stay whole; English question words and the function words
 * of Chinese, Japanese and Korean are dropped.
 */
final class QueryReducer {
  /** A term to search for; {@code phrase} when its words must appear together. */
  record Term(String text, boolean phrase) {}

  private static final Pattern QUOTED =
      Pattern.compile("\"([^\"]+)\"|“([^”]+)”|「([^」]+)」|『([^』]+)』|`([^`]+)`");
  private static final Pattern CAPS_RUN =
      Pattern.compile("\\b[A-Z][A-Z_]+(?:\\s+[A-Z][A-Z_]*)+\\b");
  private static final Pattern TOKEN =
      Pattern.compile(
          "[\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}\\p{IsHangul}ー]+"
              + "|[\\p{IsLatin}\\p{IsGreek}\\p{IsCyrillic}_][\\p{IsLatin}\\p{IsGreek}\\p{IsCyrillic}\\p{N}_.]*(?:\\(\\))?"
              + "|\\p{N}+");
  private static final List<String> SQL_PHRASES =
      List.of(
          "group by all",
          "order by all",
          "group by",
          "order by",
          "partition by",
          "alter table",
          "add column",
          "drop column",
          "rename column",
          "create table",
          "create view",
          "create index",
          "create macro",
          "create secret",
          "insert into",
          "insert or replace",
          "on conflict",
          "union by name",
          "asof join",
          "positional join",
          "lateral join",
          "anti join",
          "semi join",
          "window function",
          "primary key",
          "foreign key",
          "full text search",
          "common table expression");
  private static final List<Pattern> SQL_PHRASE_PATTERNS =
      SQL_PHRASES.stream()
          .map(
              p ->
                  Pattern.compile(
                      "\\b" + p.replace(" ", "\\s+") + "s?\\b", Pattern.CASE_INSENSITIVE))
          .toList();
  private static final Set<String> QUESTION_WORDS =
      Set.copyOf(
          List.of(
              "how",
              "do",
              "does",
              "did",
              "doing",
              "done",
              "i",
              "we",
              "you",
              "me",
              "my",
              "our",
              "your",
              "can",
              "could",
              "should",
              "would",
              "what",
              "whats",
              "which",
              "when",
              "where",
              "why",
              "who",
              "whom",
              "use",
              "using",
              "used",
              "way",
              "ways",
              "want",
              "wants",
              "need",
              "needs",
              "get",
              "make",
              "show",
              "tell",
              "find",
              "example",
              "examples",
              "please",
              "about",
              "possible",
              "best",
              "there",
              "here",
              "some",
              "any",
              "all",
              "from",
              "its",
              "it's",
              "has",
              "have",
              "was",
              "were",
              "been",
              "so",
              "than",
              "too",
              "very",
              "just",
              "also",
              "only",
              "between",
              "one",
              "difference",
              "work",
              "works"));
  private static final Set<String> CJK_STOP_WORDS =
      Set.copyOf(
          List.of(
              "的", "向", "表中", "了", "是", "在", "中", "和", "与", "或", "及", "把", "将", "对", "从", "到", "用",
              "请", "问", "为", "吗", "呢", "吧", "啊", "我", "你", "他", "我们", "如何", "怎么", "怎样", "怎么样", "什么",
              "哪些", "哪个", "可以", "能", "能够", "使用", "方法", "一个", "这个", "那个", "里", "时", "要", "想", "需要",
              "进行", "有", "没有", "个", "些", "该", "中的", "上", "下", "并", "する", "ます", "です", "ある", "いる",
              "なる", "できる", "使う", "方法", "どう", "どの", "どうやって", "やり方", "教える", "くださる", "ください", "たい",
              "には", "とは", "何", "こと", "もの", "よう", "ため", "の", "は", "が", "を", "に", "で", "と", "も", "か",
              "방법", "어떻게", "하다", "하는", "사용", "사용하다", "무엇", "있다", "되다", "수", "것", "알려", "주세요", "어떤",
              "위해", "때", "및", "이", "가", "을", "를", "은", "는", "에", "의"));

  private QueryReducer() {}

  static List<Term> reduce(String question, DocsAnalyzers analyzers) {
    Map<String, Term> terms = new LinkedHashMap<>();
    StringBuilder rest = new StringBuilder();
    Matcher quoted = QUOTED.matcher(question);
    int last = 0;
    while (quoted.find()) {
      rest.append(question, last, quoted.start()).append(' ');
      String text = firstGroup(quoted).trim();
      if (!text.isEmpty()) {
        add(terms, new Term(text, text.contains(" ")));
      }
      last = quoted.end();
    }
    rest.append(question.substring(last));
    String text = takePhrases(rest.toString(), terms);
    Matcher token = TOKEN.matcher(text);
    while (token.find()) {
      String word = token.group();
      if (Language.isCjk(word.codePointAt(0))) {
        for (String part : cjkWords(analyzers.of(Language.detect(word)), word)) {
          add(terms, new Term(part, false));
        }
        continue;
      }
      String clean = word.replaceAll("\\(\\)$", "").replaceAll("\\.+$", "");
      String lower = clean.toLowerCase(Locale.ROOT);
      // an identifier, or a word in capitals (EXPLAIN, IN), is meant as written
      boolean identifier =
          clean.contains("_")
              || word.endsWith("()")
              || clean.contains(".")
              || (clean.length() > 1 && clean.equals(clean.toUpperCase(Locale.ROOT)));
      if (!clean.isEmpty()
          && (identifier
              || !(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(lower)
                  || QUESTION_WORDS.contains(lower)))) {
        add(terms, new Term(clean, false));
      }
    }
    if (terms.isEmpty()) {
      Matcher any = TOKEN.matcher(question);
      while (any.find()) {
        add(terms, new Term(any.group(), false));
      }
    }
    return List.copyOf(terms.values());
  }

  /** Known SQL phrases first (so ALTER TABLE ADD COLUMN is two), then other upper-case runs. */
  private static String takePhrases(String text, Map<String, Term> terms) {
    String rest = text;
    for (int i = 0; i < SQL_PHRASES.size(); i++) {
      Matcher m = SQL_PHRASE_PATTERNS.get(i).matcher(rest);
      StringBuilder blanked = new StringBuilder(rest);
      while (m.find()) {
        add(terms, new Term(SQL_PHRASES.get(i).toUpperCase(Locale.ROOT), true));
        for (int k = m.start(); k < m.end(); k++) {
          blanked.setCharAt(k, ' ');
        }
      }
      rest = blanked.toString();
    }
    Matcher caps = CAPS_RUN.matcher(rest);
    StringBuilder out = new StringBuilder();
    while (caps.find()) {
      add(terms, new Term(caps.group().replaceAll("\\s+", " "), true));
      caps.appendReplacement(out, " ");
    }
    caps.appendTail(out);
    return out.toString();
  }

  private static void add(Map<String, Term> terms, Term term) {
    terms.putIfAbsent(term.text().toLowerCase(Locale.ROOT), term);
  }

  private static String firstGroup(Matcher m) {
    for (int i = 1; i <= m.groupCount(); i++) {
      if (m.group(i) != null) {
        return m.group(i);
      }
    }
    return "";
  }

  /**
   * The words of a CJK run without its function words. A segmenter often splits a short question
   * into single characters it would not split in a page ({@code 递归} → 递, 归公), so a single character
   * is joined to the word next to it in the question; the bigram fields then match the joined text
   * as it is written in pages.
   */
  static List<String> cjkWords(Analyzer analyzer, String run) {
    List<int[]> kept = new ArrayList<>();
    for (Tokens token : Tokens.of(analyzer, run)) {
      if (!CJK_STOP_WORDS.contains(token.term())
          && !CJK_STOP_WORDS.contains(run.substring(token.start(), token.end()))) {
        kept.add(new int[] {token.start(), token.end()});
      }
    }
    List<int[]> merged = new ArrayList<>();
    for (int i = 0; i < kept.size(); i++) {
      int[] word = kept.get(i);
      int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      boolean single = word[1] - word[0] == 1;
      if (last != null && last[1] == word[0] && (single || last[1] - last[0] == 1)) {
        last[1] = word[1];
      } else {
        merged.add(new int[] {word[0], word[1]});
      }
    }
    return merged.stream().map(w -> run.substring(w[0], w[1])).toList();
  }
}
