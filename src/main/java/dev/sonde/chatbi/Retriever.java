package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Join;
import dev.sonde.core.Language;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The retrieve step of chat_bi ("GraphRAG" over one domain): finds the tables, columns and metrics
 * a question is about by words ({@link ItemScorer}: an item counts when the question says one of
 * its words, compared as Lucene token runs with English stemming and CJK bigrams; a yes or no, with
 * no BM25 or other term weighting), by meaning (sentence embeddings, when {@code chatbi.embeddings}
 * is on), and by values ({@link ValueLinker}: "上海" is a {@code stores.city}); gives each word one
 * meaning ({@link Disambiguator}); then connects the tables found by the shortest join tree, at
 * most two hops between any two, and keeps what fits the context budget. Every match says why.
 */
public final class Retriever {
  /** At most this many items (tables, columns, metrics) go to the generator or the model. */
  static final int BUDGET = 16;

  private static final int MAX_HOPS = 2;

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

  private final ItemIndex index;
  private final ItemScorer scorer;
  private final ValueLinker linker;
  private final Disambiguator disambiguator;

  public Retriever(Ontology ontology) {
    this.index = new ItemIndex(ontology);
    this.scorer = new ItemScorer(index);
    this.linker = new ValueLinker(index);
    this.disambiguator = new Disambiguator(index);
  }

  Ontology ontology() {
    return index.ontology();
  }

  /**
   * What {@code question} is about. {@code dense} adds the embedding model's similarity (loading it
   * on first use); without it only words and values count.
   */
  public Retrieved retrieve(String question, boolean dense) {
    String q = question.toLowerCase(Locale.ROOT);
    // the embedding model reads English: a CJK question is matched by words and values only
    dense = dense && Language.detect(question) == Language.EN;
    List<Match> matches = scorer.matches(question, dense);
    List<String> said =
        matches.stream().map(Match::said).filter(Objects::nonNull).distinct().toList();
    List<ValueMatch> values = linker.values(q, said);
    disambiguator.resolve(q, matches, values);
    List<String> dropped = new ArrayList<>();
    while (matches.size() > BUDGET) {
      dropped.add(matches.remove(matches.size() - 1).item().key() + " (over the budget)");
    }
    Set<String> wanted = new LinkedHashSet<>();
    matches.forEach(m -> wanted.addAll(m.item().tables()));
    values.forEach(v -> wanted.add(Ontology.tableOf(v.column())));
    JoinTree tree = JoinTree.connect(index.ontology(), new ArrayList<>(wanted), MAX_HOPS);
    dropped.addAll(tree.dropped());
    return new Retrieved(matches, values, tree.tables(), tree.joins(), dropped, dense);
  }

  private static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }
}
