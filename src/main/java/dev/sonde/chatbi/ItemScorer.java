package dev.sonde.chatbi;

import dev.sonde.chatbi.Retriever.Item;
import dev.sonde.chatbi.Retriever.Match;
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

/**
 * Scores a question against the index three ways: lexical (1 when the question says one of an
 * item's words, else 0), dense (the cosine similarity of the question's embedding and the nearest
 * word's, for the few nearest above a floor) and described (the share of the question's tokens an
 * item's description holds, only when nothing is said). A match's score weighs them 0.6, 0.4, 0.2.
 * Without dense, the other two keep their weights: a score only orders the matches, and the order
 * is the same as with the two reweighed to sum to one.
 */
final class ItemScorer {
  private static final double DENSE_FLOOR = 0.4;
  private static final int DENSE_TOP = 3;
  private static final int DESCRIBED_TOP = 3;

  private final ItemIndex index;

  ItemScorer(ItemIndex index) {
    this.index = index;
  }

  /**
   * The items {@code question} is about, best first. {@code dense} adds the embedding model's
   * similarity (loading it on first use); without it only words count.
   */
  List<Match> matches(String question, boolean dense) {
    Map<Integer, double[]> scores = new LinkedHashMap<>(); // item -> lexical, dense, described
    Map<Integer, List<String>> why = new HashMap<>();
    Map<Integer, String> saidBy = new HashMap<>();
    lexical(question, scores, why, saidBy);
    if (dense) {
      dense(question, scores, why);
    }
    described(question, scores, why);
    List<Item> items = index.items();
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
    return matches;
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
    for (String field : ItemIndex.FIELDS) {
      asked.put(field, ItemIndex.tokens(field, question));
    }
    List<Item> items = index.items();
    for (int i = 0; i < items.size(); i++) {
      Item item = items.get(i);
      // the longest word said as written: "population density" rather than "density" inside it
      String longest = null;
      for (int w = 0; w < item.words().size(); w++) {
        List<String> run = index.wordTokens(i).get(w);
        String field = ItemIndex.fieldOf(item.words().get(w));
        String word = item.words().get(w);
        // "ordered at" is one token without its stop word: it must be written, not just "orders"
        boolean shortened = field.equals("en") && run.size() < word.strip().split("\\s+").length;
        if (!run.isEmpty()
            && Collections.indexOfSubList(asked.get(field), run) >= 0
            && (!shortened || Mentions.indexOf(lower, word.toLowerCase(Locale.ROOT)) >= 0)
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

  /** The items whose nearest Latin word means most what the question means, above the floor. */
  private void dense(
      String question, Map<Integer, double[]> scores, Map<Integer, List<String>> why) {
    float[] asked = Embedder.embed(question);
    List<float[]> known = index.vectors();
    record Near(int item, String word, double similarity) {}
    List<Near> near = new ArrayList<>();
    List<Item> items = index.items();
    int next = 0;
    for (int i = 0; i < items.size(); i++) {
      Near best = null;
      for (String word : items.get(i).words()) {
        double similarity = Embedder.cosine(asked, known.get(next++));
        if (ItemIndex.fieldOf(word).equals("cjk")) {
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
    Set<String> asked =
        new LinkedHashSet<>(ItemIndex.tokens(ItemIndex.fieldOf(question), question));
    if (asked.isEmpty()) {
      return;
    }
    record Hit(int item, List<String> words) {}
    List<Hit> hits = new ArrayList<>();
    for (int i = 0; i < index.items().size(); i++) {
      List<String> common = asked.stream().filter(index.descriptionTokens(i)::contains).toList();
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
    boolean written = Mentions.indexOf(question, word.toLowerCase(Locale.ROOT)) >= 0;
    boolean thanWritten = Mentions.indexOf(question, than.toLowerCase(Locale.ROOT)) >= 0;
    return written != thanWritten ? written : word.length() > than.length();
  }
}
