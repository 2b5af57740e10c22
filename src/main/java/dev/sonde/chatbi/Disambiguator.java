package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Attribute;
import dev.sonde.chatbi.Ontology.Cardinality;
import dev.sonde.chatbi.Ontology.Role;
import dev.sonde.chatbi.Retriever.Kind;
import dev.sonde.chatbi.Retriever.Match;
import dev.sonde.chatbi.Retriever.ValueMatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Gives each word of a question one meaning: drops the matches a word would otherwise add beside
 * the one it means (a superlative that ranks, a column of the wrong table, a word inside a longer
 * one).
 */
final class Disambiguator {
  /** An English superlative: what it ranks is named after it ("the largest state"). */
  private static final Pattern SUPERLATIVE_WORD =
      Pattern.compile("(?i)[a-z]{2,}est|most|least|fewest");

  private final ItemIndex index;

  Disambiguator(ItemIndex index) {
    this.index = index;
  }

  /**
   * A superlative column word or a filter's word followed by a table's word means that table's
   * column or filter ("the largest state": its area; "major cities") or none of them; followed by a
   * measure column's word it only ranks ("the largest population"). A word that names columns of
   * several tables ("city": stores and customers) means the column of a table the rest of the
   * question is about, its values included; failing that, the one a glossary term gives it. Then
   * words inside longer ones are dropped ({@link #subsume}).
   */
  void resolve(String q, List<Match> matches, List<ValueMatch> values) {
    for (List<Match> same : bySaidWord(matches).values()) {
      if (!rankedWhatFollows(q, same, matches) && same.size() >= 2) {
        keepTheOneInContext(same, matches, values);
      }
    }
    subsume(q, matches, values);
  }

  /** The column and filter matches by the word the question says them with. */
  private static Map<String, List<Match>> bySaidWord(List<Match> matches) {
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
    return byWord;
  }

  /**
   * When {@code same}'s word ranks or qualifies what is named right after it, drops all of {@code
   * same} but those of the table named there; true when it did.
   */
  private boolean rankedWhatFollows(String q, List<Match> same, List<Match> matches) {
    String said = same.get(0).said();
    int at = Mentions.indexOf(q, said);
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
                .anyMatch(m -> Mentions.indexOf(after, m.said()) == 0 && isMeasure(m));
    boolean tableFollows =
        ranks
            && index.items().stream()
                .filter(i -> i.kind() == Kind.TABLE)
                .flatMap(i -> i.words().stream())
                .anyMatch(w -> Mentions.indexOf(after, w.toLowerCase(Locale.ROOT)) == 0);
    if (!measureFollows && !tableFollows) {
      return false;
    }
    List<Match> beside =
        measureFollows
            ? List.of()
            : same.stream()
                .filter(
                    m ->
                        index.tableWords(m.item().tables()).stream()
                            .anyMatch(w -> Mentions.indexOf(after, w) == 0))
                .toList();
    matches.removeAll(same.stream().filter(m -> !beside.contains(m)).toList());
    return true;
  }

  /** Of {@code same}, keeps the columns of tables the rest of the question is about. */
  private void keepTheOneInContext(List<Match> same, List<Match> matches, List<ValueMatch> values) {
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
                                && index
                                        .ontology()
                                        .cardinality(
                                            fine.item().tables().iterator().next(),
                                            coarse.item().tables().iterator().next())
                                    == Cardinality.MANY_TO_ONE))
        .toList();
  }

  private boolean isMeasure(Match column) {
    String qualified = column.item().key().substring("column ".length());
    Attribute a =
        index
            .ontology()
            .entity(Ontology.tableOf(qualified))
            .attribute(Ontology.columnOf(qualified));
    return a != null && a.role() == Role.MEASURE;
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
        int at = Mentions.indexOf(q, m.said());
        spans.add(at < 0 ? new int[] {-1, -1} : new int[] {at, at + m.said().length()});
      }
    }
    for (ValueMatch v : values) {
      int at = Mentions.indexOf(q, v.text().toLowerCase(Locale.ROOT));
      if (at >= 0) {
        spans.add(new int[] {at, at + v.text().length()});
      }
    }
    matches.removeIf(
        m -> {
          if (m.said() == null || m.dense() > 0 && m.lexical() == 0) {
            return false;
          }
          int at = Mentions.indexOf(q, m.said());
          if (at < 0) {
            return false;
          }
          int end = at + m.said().length();
          return spans.stream().anyMatch(s -> s[0] <= at && end <= s[1] && s[1] - s[0] > end - at);
        });
  }
}
