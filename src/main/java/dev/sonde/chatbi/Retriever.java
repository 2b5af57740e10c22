package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Attribute;
import dev.sonde.chatbi.Ontology.Cardinality;
import dev.sonde.chatbi.Ontology.Entity;
import dev.sonde.chatbi.Ontology.Join;
import dev.sonde.chatbi.Ontology.Role;
import dev.sonde.chatbi.Ontology.Term;
import dev.sonde.chatbi.Ontology.Value;
import dev.sonde.chatbi.Ontology.ValueDictionary;
import dev.sonde.core.Language;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * The retrieve step of chat_bi ("GraphRAG" over one domain): finds the tables, columns and metrics
 * a question is about by words (Lucene BM25, English stemming and CJK bigrams, plus whole terms and
 * synonyms found verbatim), by meaning (sentence embeddings), and by values ("上海" is a {@code
 * stores.city}); then connects the tables found by the shortest join tree, at most two hops between
 * any two, and keeps what fits the context budget. Every match says why.
 */
public final class Retriever {
  /** At most this many items (tables, columns, metrics) go to the generator or the model. */
  static final int BUDGET = 16;

  private static final int MAX_HOPS = 2;

  /** An English superlative: what it ranks is named after it ("the largest state"). */
  private static final Pattern SUPERLATIVE_WORD =
      Pattern.compile("(?i)[a-z]{2,}est|most|least|fewest");

  private static final double DENSE_FLOOR = 0.4;
  private static final int DENSE_TOP = 3;
  private static final int DESCRIBED_TOP = 3;
  private static final List<String> FIELDS = List.of("en", "cjk");
  private static final Analyzer ANALYZER =
      new PerFieldAnalyzerWrapper(new EnglishAnalyzer(), Map.of("cjk", new CJKAnalyzer()));
  private static final Pattern QUALIFIED = Pattern.compile("([A-Za-z_][\\w]*)\\.([A-Za-z_][\\w]*)");

  enum Kind {
    TABLE,
    COLUMN,
    METRIC,
    FILTER,
    RELATION
  }

  /**
   * Something a question can be about, with every word that names it; {@code glossary}: the words a
   * glossary term gives it, as opposed to its own name.
   */
  record Item(
      String key,
      Kind kind,
      Set<String> tables,
      List<String> words,
      Set<String> glossary,
      String description) {}

  /**
   * An item the question is about: its scores and why. {@code described}: the share of the
   * question's words its description holds, a weak signal for the context a model sees.
   */
  public record Match(
      Item item,
      double score,
      double lexical,
      double dense,
      double described,
      List<String> why,
      String said) {}

  /** Words that are a value of a column: the value itself or one of its synonyms. */
  private record Candidate(String text, String column, String value) {}

  /** A value of a dictionary found in the question. */
  public record ValueMatch(String text, String column, String value) {}

  /** What the generator and the model see of the domain for one question. */
  public record Retrieved(
      List<Match> matches,
      List<ValueMatch> values,
      List<String> tables,
      List<Join> joins,
      List<String> dropped,
      boolean dense) {
    public JsonObject toJson() {
      JsonArray m = new JsonArray();
      matches.forEach(
          x ->
              m.add(
                  new JsonObject()
                      .put("item", x.item().key())
                      .put("score", round(x.score()))
                      .put("why", new JsonArray(x.why()))));
      JsonArray v = new JsonArray();
      values.forEach(
          x ->
              v.add(
                  new JsonObject()
                      .put("text", x.text())
                      .put("column", x.column())
                      .put("value", x.value())));
      JsonArray j = new JsonArray();
      joins.forEach(x -> j.add(JoinTree.text(x)));
      return new JsonObject()
          .put("matches", m)
          .put("values", v)
          .put("tables", new JsonArray(tables))
          .put("joins", j)
          .put("dropped", new JsonArray(dropped))
          .put("dense", dense);
    }
  }

  private final Ontology ontology;
  private final List<Item> items = new ArrayList<>();
  private final List<List<List<String>>> wordTokens = new ArrayList<>();
  private final List<Set<String>> descriptionTokens = new ArrayList<>();
  private List<float[]> vectors;

  public Retriever(Ontology ontology) {
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

  /**
   * What {@code question} is about. {@code dense} adds the embedding model's similarity (loading it
   * on first use); without it only words and values count.
   */
  public Retrieved retrieve(String question, boolean dense) {
    String q = question.toLowerCase(Locale.ROOT);
    Map<Integer, double[]> scores = new LinkedHashMap<>(); // item -> lexical, dense
    Map<Integer, List<String>> why = new HashMap<>();
    Map<Integer, String> saidBy = new HashMap<>();
    lexical(question, scores, why, saidBy);
    Set<String> said = new LinkedHashSet<>(saidBy.values());
    // the embedding model reads English: a CJK question is matched by words and values only
    dense = dense && Language.detect(question) == Language.EN;
    if (dense) {
      float[] asked = Embedder.embed(question);
      List<float[]> known = vectors();
      record Near(int item, String word, double similarity) {}
      List<Near> near = new ArrayList<>();
      int next = 0;
      for (int i = 0; i < items.size(); i++) {
        Near best = null;
        for (String word : items.get(i).words()) {
          double similarity = Embedder.cosine(asked, known.get(next++));
          if (fieldOf(word).equals("cjk")) {
            continue;
          }
          if (best == null || similarity > best.similarity()) {
            best = new Near(i, word, similarity);
          }
        }
        if (best != null && best.similarity() >= DENSE_FLOOR) {
          near.add(best);
        }
      }
      near.sort(Comparator.comparingDouble(Near::similarity).reversed());
      for (Near n : near.subList(0, Math.min(DENSE_TOP, near.size()))) {
        scores.computeIfAbsent(n.item(), k -> new double[3])[1] = n.similarity();
        why.computeIfAbsent(n.item(), k -> new ArrayList<>())
            .add(String.format(Locale.ROOT, "means '%s' (%.2f)", n.word(), n.similarity()));
      }
    }
    described(question, scores, why);
    List<Match> matches = new ArrayList<>();
    scores.forEach(
        (i, s) -> {
          if (s[0] > 0 || s[1] >= DENSE_FLOOR || s[2] > 0) {
            matches.add(
                new Match(
                    items.get(i),
                    0.6 * s[0] + 0.4 * s[1] + 0.2 * s[2],
                    s[0],
                    s[1],
                    s[2],
                    why.get(i),
                    saidBy.get(i)));
          }
        });
    // ties: a metric says more than a column, a column more than a table
    matches.sort(
        Comparator.comparingDouble(Match::score)
            .reversed()
            .thenComparing(m -> -m.item().kind().ordinal()));
    List<int[]> saidSpans = new ArrayList<>();
    for (String word : said) {
      int at = indexOf(q, word);
      if (at >= 0) {
        saidSpans.add(new int[] {at, at + word.length()});
      }
    }
    List<ValueMatch> values = values(q, saidSpans);
    disambiguate(q, matches, values);
    subsume(q, matches, values);
    List<String> dropped = new ArrayList<>();
    while (matches.size() > BUDGET) {
      dropped.add(matches.remove(matches.size() - 1).item().key() + " (over the budget)");
    }
    Set<String> wanted = new LinkedHashSet<>();
    matches.forEach(m -> wanted.addAll(m.item().tables()));
    values.forEach(v -> wanted.add(Ontology.tableOf(v.column())));
    JoinTree tree = JoinTree.connect(ontology, new ArrayList<>(wanted), MAX_HOPS);
    dropped.addAll(tree.dropped());
    return new Retrieved(matches, values, tree.tables(), tree.joins(), dropped, dense);
  }

  /**
   * Items one of whose words (a term or synonym) the question says: Latin words as English-stemmed
   * token runs ("order lines" matches "order line"), CJK words as runs of character bigrams, both
   * through Lucene's analyzers. Single CJK characters are too ambiguous to count (本 in 日本).
   */
  private void lexical(
      String question,
      Map<Integer, double[]> scores,
      Map<Integer, List<String>> why,
      Map<Integer, String> saidBy) {
    String lower = question.toLowerCase(Locale.ROOT);
    Map<String, List<String>> asked = new HashMap<>();
    for (String field : FIELDS) {
      asked.put(field, tokens(field, question));
    }
    for (int i = 0; i < items.size(); i++) {
      Item item = items.get(i);
      // the longest word said as written: "population density" rather than "density" inside it
      String longest = null;
      for (int w = 0; w < item.words().size(); w++) {
        List<String> run = wordTokens.get(i).get(w);
        String field = fieldOf(item.words().get(w));
        String word = item.words().get(w);
        // "ordered at" is one token without its stop word: it must be written, not just "orders"
        boolean shortened = field.equals("en") && run.size() < word.strip().split("\\s+").length;
        if (!run.isEmpty()
            && Collections.indexOfSubList(asked.get(field), run) >= 0
            && (!shortened || indexOf(lower, word.toLowerCase(Locale.ROOT)) >= 0)
            && (longest == null || longer(word, longest, lower))) {
          longest = word;
        }
      }
      if (longest != null) {
        scores.computeIfAbsent(i, k -> new double[3])[0] = 1;
        why.computeIfAbsent(i, k -> new ArrayList<>()).add("says '" + longest + "'");
        saidBy.put(i, longest.toLowerCase(Locale.ROOT));
      }
    }
  }

  /**
   * Descriptions holding the question's words, when it names nothing by its words: the few that
   * hold most of them. A fallback that gives a model some context; once a question names a table,
   * column or metric, descriptions would only add tables it is not about (the stores' "sales
   * region" to a sales question). The embedded parser reads only what the question says.
   */
  private void described(
      String question, Map<Integer, double[]> scores, Map<Integer, List<String>> why) {
    if (scores.values().stream().anyMatch(s -> s[0] > 0)) {
      return;
    }
    Set<String> asked = new LinkedHashSet<>(tokens(fieldOf(question), question));
    if (asked.isEmpty()) {
      return;
    }
    record Hit(int item, List<String> words) {}
    List<Hit> hits = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      List<String> common = asked.stream().filter(descriptionTokens.get(i)::contains).toList();
      if (!common.isEmpty()) {
        hits.add(new Hit(i, common));
      }
    }
    hits.sort(Comparator.comparingInt((Hit h) -> h.words().size()).reversed());
    for (Hit h : hits.subList(0, Math.min(DESCRIBED_TOP, hits.size()))) {
      scores.computeIfAbsent(h.item(), k -> new double[3])[2] =
          (double) h.words().size() / asked.size();
      why.computeIfAbsent(h.item(), k -> new ArrayList<>())
          .add("its description says " + h.words());
    }
  }

  /** {@code word} is a better name for what the question says than {@code than}. */
  private static boolean longer(String word, String than, String question) {
    boolean written = indexOf(question, word.toLowerCase(Locale.ROOT)) >= 0;
    boolean thanWritten = indexOf(question, than.toLowerCase(Locale.ROOT)) >= 0;
    return written != thanWritten ? written : word.length() > than.length();
  }

  private static String fieldOf(String word) {
    return word.codePoints().anyMatch(Language::isCjk) ? "cjk" : "en";
  }

  private static List<String> tokens(String field, String text) {
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

  /**
   * A superlative column word or a filter's word followed by a table's word means that table's
   * column or filter ("the largest state": its area; "major cities") or none of them; followed by a
   * measure column's word it only ranks ("the largest population"). A word that names columns of
   * several tables ("city": stores and customers) means the column of a table the rest of the
   * question is about, its values included; failing that, the one a glossary term gives it.
   */
  private void disambiguate(String q, List<Match> matches, List<ValueMatch> values) {
    Map<String, List<Match>> byWord = new LinkedHashMap<>();
    for (Match m : matches) {
      String said = m.said();
      if ((m.item().kind() == Kind.COLUMN || m.item().kind() == Kind.FILTER) && said != null) {
        byWord
            .computeIfAbsent(
                said + (m.item().kind() == Kind.FILTER ? " (filter)" : ""), k -> new ArrayList<>())
            .add(m);
      }
    }
    for (Map.Entry<String, List<Match>> word : byWord.entrySet()) {
      List<Match> same = word.getValue();
      String said = same.get(0).said();
      int at = indexOf(q, said);
      String after =
          at < 0 ? "" : q.substring(at + said.length()).strip().replaceFirst("^number of ", "");
      // a superlative or a filter's word ("major") is about what is named after it
      boolean ranks =
          SUPERLATIVE_WORD.matcher(said).matches() || same.get(0).item().kind() == Kind.FILTER;
      boolean measureFollows =
          ranks
              && matches.stream()
                  .filter(
                      m -> !same.contains(m) && m.item().kind() == Kind.COLUMN && m.said() != null)
                  .anyMatch(m -> indexOf(after, m.said()) == 0 && isMeasure(m));
      boolean tableFollows =
          ranks
              && items.stream()
                  .filter(i -> i.kind() == Kind.TABLE)
                  .flatMap(i -> i.words().stream())
                  .anyMatch(w -> indexOf(after, w.toLowerCase(Locale.ROOT)) == 0);
      if (measureFollows || tableFollows) {
        List<Match> beside =
            measureFollows
                ? List.of()
                : same.stream()
                    .filter(
                        m ->
                            tableWords(m.item().tables()).stream()
                                .anyMatch(w -> indexOf(after, w) == 0))
                    .toList();
        matches.removeAll(same.stream().filter(m -> !beside.contains(m)).toList());
        continue;
      }
      if (same.size() < 2) {
        continue;
      }
      Set<String> others = new LinkedHashSet<>();
      matches.stream()
          .filter(m -> !same.contains(m) && m.lexical() > 0)
          .forEach(m -> others.addAll(m.item().tables()));
      values.forEach(v -> others.add(Ontology.tableOf(v.column())));
      List<Match> inContext =
          finest(same.stream().filter(m -> others.containsAll(m.item().tables())).toList());
      List<Match> keep =
          !inContext.isEmpty()
              ? inContext
              : same.stream().filter(m -> m.item().glossary().contains(m.said())).toList();
      if (!keep.isEmpty()) {
        matches.removeAll(same.stream().filter(m -> !keep.contains(m)).toList());
      }
    }
  }

  /**
   * Of columns of several tables the question is about, those of the finest grain: "the population
   * of boston massachusetts" is the city's, whose rows each belong to one state.
   */
  private List<Match> finest(List<Match> columns) {
    return columns.stream()
        .filter(
            coarse ->
                columns.stream()
                    .noneMatch(
                        fine ->
                            fine != coarse
                                && ontology.cardinality(
                                        fine.item().tables().iterator().next(),
                                        coarse.item().tables().iterator().next())
                                    == Cardinality.MANY_TO_ONE))
        .toList();
  }

  /** The words naming any of {@code tables}, lower case. */
  private List<String> tableWords(Set<String> tables) {
    List<String> out = new ArrayList<>();
    for (Item item : items) {
      if (item.kind() == Kind.TABLE && tables.containsAll(item.tables())) {
        item.words().forEach(w -> out.add(w.toLowerCase(Locale.ROOT)));
      }
    }
    return out;
  }

  private boolean isMeasure(Match column) {
    String qualified = column.item().key().substring("column ".length());
    Attribute a =
        ontology.entity(Ontology.tableOf(qualified)).attribute(Ontology.columnOf(qualified));
    return a != null && a.role() == Role.MEASURE;
  }

  /**
   * Dictionary values and their synonyms found in the question, longest first, not overlapping; a
   * word that already named a table, column or metric is that and not a value ("store"). Words that
   * are a value of several columns ("missouri": a state and a river) are the one whose table the
   * question names beside them ("the missouri river", "the city of new york"), else the one with a
   * column named right after them ("the ohio runs through"), else the first dictionary's.
   */
  private List<ValueMatch> values(String q, List<int[]> saidSpans) {
    Map<String, List<Candidate>> byText = new LinkedHashMap<>();
    for (ValueDictionary d : ontology.values()) {
      for (Value v : d.entries()) {
        byText
            .computeIfAbsent(v.value().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
            .add(new Candidate(v.value(), d.column(), v.value()));
        for (String synonym : v.synonyms()) {
          byText
              .computeIfAbsent(synonym.toLowerCase(Locale.ROOT), k -> new ArrayList<>())
              .add(new Candidate(synonym, d.column(), v.value()));
        }
      }
    }
    List<String> texts = new ArrayList<>(byText.keySet());
    texts.sort(Comparator.comparingInt(String::length).reversed());
    List<ValueMatch> out = new ArrayList<>();
    boolean[] taken = new boolean[q.length()];
    for (String text : texts) {
      int at = indexOf(q, text);
      if (text.length() < 2 || at < 0 || anyTaken(taken, at, text.length())) {
        continue;
      }
      int end = at + text.length();
      boolean named =
          saidSpans.stream().anyMatch(x -> x[0] < end && at < x[1] && x[1] - x[0] >= end - at);
      if (named || nameAndKind(text, byText)) {
        continue;
      }
      for (int k = at; k < end; k++) {
        taken[k] = true;
      }
      List<Candidate> same = byText.get(text);
      Candidate chosen =
          same.stream()
              .filter(c -> namedBeside(q, at, end, Ontology.tableOf(c.column())))
              .findFirst()
              .or(
                  () ->
                      same.stream()
                          .filter(c -> columnFollows(q, end, Ontology.tableOf(c.column())))
                          .findFirst())
              .orElse(same.get(0));
      out.add(new ValueMatch(chosen.text(), chosen.column(), chosen.value()));
    }
    return out;
  }

  /**
   * "colorado river" is the river named colorado (a name, then its kind) before it is any column's
   * value spelled so (a state's lowest point).
   */
  private boolean nameAndKind(String text, Map<String, List<Candidate>> byText) {
    int space = text.lastIndexOf(' ');
    if (space < 0 || !byText.containsKey(text.substring(0, space))) {
      return false;
    }
    String kind = text.substring(space + 1);
    for (Candidate c : byText.get(text.substring(0, space))) {
      if (tableWords(Set.of(Ontology.tableOf(c.column()))).stream()
          .anyMatch(w -> indexOf(kind, w) == 0)) {
        return true;
      }
    }
    return false;
  }

  /** The question names {@code table} right after q[at, end) or right before it ("city of"). */
  private boolean namedBeside(String q, int at, int end, String table) {
    String before = q.substring(0, at).strip();
    String after = q.substring(end).strip();
    for (String w : tableWords(Set.of(table))) {
      if (indexOf(after, w) == 0
          || before.matches("(?s).*\\b" + Pattern.quote(w) + "s?(?:\\s+(?:of|named|called))?")) {
        return true;
      }
    }
    return false;
  }

  /** A word naming one of {@code table}'s columns comes right after q[.., end): "the ohio runs". */
  private boolean columnFollows(String q, int end, String table) {
    String after = q.substring(end).strip();
    return items.stream()
        .filter(i -> i.kind() == Kind.COLUMN && i.tables().contains(table))
        .flatMap(i -> i.words().stream())
        .anyMatch(w -> indexOf(after, w.toLowerCase(Locale.ROOT)) == 0);
  }

  /**
   * A word inside a longer one the question also says belongs to the longer: "country" in "billing
   * country", "sales" in the value "sales support agent". Lexical matches whose every occurrence
   * lies inside a longer matched word or value are dropped.
   */
  private static void subsume(String q, List<Match> matches, List<ValueMatch> values) {
    List<int[]> spans = new ArrayList<>();
    for (Match m : matches) {
      if (m.said() != null) {
        int at = indexOf(q, m.said());
        spans.add(at < 0 ? new int[] {-1, -1} : new int[] {at, at + m.said().length()});
      }
    }
    for (ValueMatch v : values) {
      int at = indexOf(q, v.text().toLowerCase(Locale.ROOT));
      if (at >= 0) {
        spans.add(new int[] {at, at + v.text().length()});
      }
    }
    matches.removeIf(
        m -> {
          if (m.said() == null || m.dense() > 0 && m.lexical() == 0) {
            return false;
          }
          int at = indexOf(q, m.said());
          if (at < 0) {
            return false;
          }
          int end = at + m.said().length();
          return spans.stream().anyMatch(s -> s[0] <= at && end <= s[1] && s[1] - s[0] > end - at);
        });
  }

  private static boolean anyTaken(boolean[] taken, int from, int length) {
    for (int k = from; k < from + length; k++) {
      if (taken[k]) {
        return true;
      }
    }
    return false;
  }

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

  /** Every item's every word, embedded once, in item order: a word alone says more than a list. */
  private synchronized List<float[]> vectors() {
    if (vectors == null) {
      vectors = List.of(Embedder.embed(items.stream().flatMap(i -> i.words().stream()).toList()));
    }
    return vectors;
  }

  private static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }
}
