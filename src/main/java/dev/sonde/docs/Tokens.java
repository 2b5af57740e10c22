package dev.sonde.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;

/** The tokens an analyzer makes of a text, each with where it stands in the text. */
record Tokens(String term, int start, int end) {
  static List<Tokens> of(Analyzer analyzer, String text) {
    List<Tokens> out = new ArrayList<>();
    try (TokenStream stream = analyzer.tokenStream("", text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        out.add(new Tokens(term.toString(), offset.startOffset(), offset.endOffset()));
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Only the terms, as the index holds them. */
  static List<String> terms(Analyzer analyzer, String text) {
    return of(analyzer, text).stream().map(Tokens::term).toList();
  }
}
