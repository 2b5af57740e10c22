package dev.sonde.docs;

import dev.sonde.core.Language;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.ja.JapaneseAnalyzer;
import org.apache.lucene.analysis.ko.KoreanAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The analyzers of the index. Prose fields exist once per language ({@code body.en}, {@code
 * body.zh}, ...), each analysed by that language's analyzer: English with stemming and stop words,
 * Chinese by SmartCN, Japanese by Kuromoji, Korean by Nori. Code is split into identifiers and
 * lower-cased only, so {@code arg_max} and {@code GROUP BY ALL} stay as written. Pages in a CJK
 * language also get character-bigram fields, which still match when a segmenter splits a short
 * question differently from the page.
 */
final class DocsAnalyzers {
  static final List<String> TEXT_FIELDS = List.of("title", "section", "breadcrumb", "body");
  static final String CODE = "code";

  /** Suffix of the character-bigram fields every CJK page also has, whatever its segmenter says. */
  static final String BIGRAMS = "cjk";

  private final Map<Language, Analyzer> byLanguage = new EnumMap<>(Language.class);
  private final Analyzer code = new CodeAnalyzer();
  private final Analyzer bigrams = new CJKAnalyzer();
  private final Analyzer perField;

  DocsAnalyzers() {
    byLanguage.put(Language.EN, new EnglishAnalyzer());
    byLanguage.put(Language.ZH, new SmartChineseAnalyzer(true));
    byLanguage.put(Language.JA, new JapaneseAnalyzer());
    byLanguage.put(Language.KO, new KoreanAnalyzer());
    Map<String, Analyzer> fields = new HashMap<>();
    for (Language language : Language.values()) {
      for (String field : TEXT_FIELDS) {
        fields.put(field(field, language), byLanguage.get(language));
      }
    }
    for (String field : TEXT_FIELDS) {
      fields.put(field + "." + BIGRAMS, bigrams);
    }
    fields.put(CODE, code);
    perField = new PerFieldAnalyzerWrapper(new StandardAnalyzer(), fields);
  }

  static String field(String name, Language language) {
    return name + "." + language.code();
  }

  Analyzer of(Language language) {
    return byLanguage.get(language);
  }

  Analyzer bigrams() {
    return bigrams;
  }

  Analyzer code() {
    return code;
  }

  /** The analyzer the index writer and the highlighter use, field by field. */
  Analyzer perField() {
    return perField;
  }

  private static final class CodeAnalyzer extends Analyzer {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      StandardTokenizer tokenizer = new StandardTokenizer();
      return new TokenStreamComponents(tokenizer, new LowerCaseFilter(tokenizer));
    }
  }
}
