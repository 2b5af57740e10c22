package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Attribute;
import dev.sonde.chatbi.Ontology.Entity;
import dev.sonde.chatbi.Ontology.Role;
import dev.sonde.chatbi.Ontology.Term;
import dev.sonde.chatbi.Retriever.Item;
import dev.sonde.chatbi.Retriever.Kind;
import dev.sonde.core.Language;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * One domain's items (its tables, columns, metrics, filters and relations) with every word that
 * names them, analysed once: each word as a run of Lucene tokens (English-stemmed, or CJK bigrams),
 * each description as a set of tokens, and every word's embedding on first use.
 */
final class ItemIndex {
  static final List<String> FIELDS = List.of("en", "cjk");
  private static final Analyzer ANALYZER =
      new PerFieldAnalyzerWrapper(new EnglishAnalyzer(), Map.of("cjk", new CJKAnalyzer()));
  private static final Pattern QUALIFIED = Pattern.compile("([A-Za-z_][\\w]*)\\.([A-Za-z_][\\w]*)");

  private final Ontology ontology;
  private final List<Item> items = new ArrayList<>();
  private final List<List<List<String>>> wordTokens = new ArrayList<>();
  private final List<Set<String>> descriptionTokens = new ArrayList<>();
  private List<float[]> vectors;

  ItemIndex(Ontology ontology) {
    this.ontology = ontology;
    collectItems();
    for (Item item : items) {
      List<List<String>> runs = new ArrayList<>();
      for (String word : item.words()) {
        String field = fieldOf(word);
        List<String> run = tokens(field, word);
        // a single CJK character is not a word to match on
        runs.add(field.equals("cjk") && word.codePoints().count() < 2 ? List.of() : run);
      }
      wordTokens.add(runs);
      Set<String> described = new LinkedHashSet<>();
      if (item.description() != null) {
        FIELDS.forEach(f -> described.addAll(tokens(f, item.description())));
      }
      descriptionTokens.add(described);
    }
  }

  Ontology ontology() {
    return ontology;
  }

  List<Item> items() {
    return items;
  }

  /** The token run of each of item {@code i}'s words, in the order of its words. */
  List<List<String>> wordTokens(int i) {
    return wordTokens.get(i);
  }

  Set<String> descriptionTokens(int i) {
    return descriptionTokens.get(i);
  }

  /** Every item's every word, embedded once, in item order: a word alone says more than a list. */
  synchronized List<float[]> vectors() {
    if (vectors == null) {
      vectors = List.of(Embedder.embed(items.stream().flatMap(i -> i.words().stream()).toList()));
    }
    return vectors;
  }

  /** The words naming any of {@code tables}, lower case. */
  List<String> tableWords(Set<String> tables) {
    List<String> out = new ArrayList<>();
    for (Item item : items) {
      if (item.kind() == Kind.TABLE && tables.containsAll(item.tables())) {
        item.words().forEach(w -> out.add(w.toLowerCase(Locale.ROOT)));
      }
    }
    return out;
  }

  static String fieldOf(String word) {
    return word.codePoints().anyMatch(Language::isCjk) ? "cjk" : "en";
  }

  static List<String> tokens(String field, String text) {
    List<String> out = new ArrayList<>();
    try (TokenStream stream = ANALYZER.tokenStream(field, text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        out.add(term.toString());
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private void collectItems() {
    Map<String, List<Term>> termsByTarget = new HashMap<>();
    for (Term t : ontology.glossary()) {
      String target =
          t.table() != null
              ? "table:" + t.table().toLowerCase(Locale.ROOT)
              : t.column() != null ? "column:" + t.column().toLowerCase(Locale.ROOT) : null;
      if (target != null) {
        termsByTarget.computeIfAbsent(target, k -> new ArrayList<>()).add(t);
      }
    }
    for (Entity e : ontology.entities()) {
      List<String> named = new ArrayList<>();
      termsByTarget
          .getOrDefault("table:" + e.table().toLowerCase(Locale.ROOT), List.of())
          .forEach(t -> named.addAll(t.words()));
      add("table " + e.table(), Kind.TABLE, Set.of(e.table()), e.table(), named, e.description());
      for (Attribute a : e.attributes()) {
        if (a.role() == Role.IDENTIFIER) {
          continue;
        }
        String column = e.table() + "." + a.column();
        List<String> columnNamed = new ArrayList<>();
        termsByTarget
            .getOrDefault("column:" + column.toLowerCase(Locale.ROOT), List.of())
            .forEach(t -> columnNamed.addAll(t.words()));
        add(
            "column " + column,
            Kind.COLUMN,
            Set.of(e.table()),
            a.column(),
            columnNamed,
            a.description());
      }
    }
    for (Term t : ontology.glossary()) {
      if (t.metric() != null) {
        Set<String> tables = new LinkedHashSet<>(tablesIn(t.metric()));
        if (t.time() != null) {
          tables.add(Ontology.tableOf(t.time()));
        }
        add("metric " + t.term(), Kind.METRIC, tables, null, t.words(), null);
      } else if (t.filter() != null) {
        add(
            "filter " + t.term(),
            Kind.FILTER,
            Set.copyOf(tablesIn(t.filter())),
            null,
            t.words(),
            null);
      } else if (t.relation() != null && t.relation().anchor() != null) {
        add(
            "relation " + t.term(),
            Kind.RELATION,
            Set.of(Ontology.tableOf(t.relation().anchor())),
            null,
            t.words(),
            null);
      }
    }
  }

  /** An item named by its identifier ({@code order_items} → "order items") and glossary words. */
  private void add(
      String key,
      Kind kind,
      Set<String> tables,
      String identifier,
      List<String> named,
      String description) {
    List<String> words = new ArrayList<>();
    if (identifier != null) {
      words.add(OntologyBootstrap.words(identifier));
    }
    words.addAll(named);
    List<String> distinct = words.stream().filter(w -> !w.isBlank()).distinct().toList();
    Set<String> glossary = new LinkedHashSet<>();
    named.forEach(w -> glossary.add(w.toLowerCase(Locale.ROOT)));
    items.add(new Item(key, kind, tables, distinct, glossary, description));
  }

  /** The tables named in an expression's qualified columns. */
  private List<String> tablesIn(String expression) {
    List<String> out = new ArrayList<>();
    Matcher m = QUALIFIED.matcher(expression);
    while (m.find()) {
      if (ontology.entity(m.group(1)) != null && !out.contains(m.group(1))) {
        out.add(ontology.entity(m.group(1)).table());
      }
    }
    return out;
  }
}
