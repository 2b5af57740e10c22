package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Value;
import dev.sonde.chatbi.Ontology.ValueDictionary;
import dev.sonde.chatbi.Retriever.Kind;
import dev.sonde.chatbi.Retriever.ValueMatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Links the words of a question to the dictionary values they are ("上海" is a stores.city). */
final class ValueLinker {
  /** Words that are a value of a column: the value itself or one of its synonyms. */
  private record Candidate(String text, String column, String value) {}

  private final ItemIndex index;

  ValueLinker(ItemIndex index) {
    this.index = index;
  }

  /**
   * Dictionary values and their synonyms found in the question, longest first, not overlapping; a
   * word that already named a table, column or metric ({@code said}) is that and not a value
   * ("store"). Words that are a value of several columns ("missouri": a state and a river) are the
   * one whose table the question names beside them ("the missouri river", "the city of new york"),
   * else the one with a column named right after them ("the ohio runs through"), else the first
   * dictionary's.
   */
  List<ValueMatch> values(String q, Collection<String> said) {
    List<int[]> saidSpans = new ArrayList<>();
    for (String word : said) {
      int at = Mentions.indexOf(q, word);
      if (at >= 0) {
        saidSpans.add(new int[] {at, at + word.length()});
      }
    }
    Map<String, List<Candidate>> byText = candidates();
    List<String> texts = new ArrayList<>(byText.keySet());
    texts.sort(Comparator.comparingInt(String::length).reversed());
    List<ValueMatch> out = new ArrayList<>();
    boolean[] taken = new boolean[q.length()];
    for (String text : texts) {
      int at = Mentions.indexOf(q, text);
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

  /** Every value and synonym of the domain's dictionaries by its lower-case text. */
  private Map<String, List<Candidate>> candidates() {
    Map<String, List<Candidate>> byText = new LinkedHashMap<>();
    for (ValueDictionary d : index.ontology().values()) {
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
    return byText;
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
      if (index.tableWords(Set.of(Ontology.tableOf(c.column()))).stream()
          .anyMatch(w -> Mentions.indexOf(kind, w) == 0)) {
        return true;
      }
    }
    return false;
  }

  /** The question names {@code table} right after q[at, end) or right before it ("city of"). */
  private boolean namedBeside(String q, int at, int end, String table) {
    String before = q.substring(0, at).strip();
    String after = q.substring(end).strip();
    for (String w : index.tableWords(Set.of(table))) {
      if (Mentions.indexOf(after, w) == 0
          || before.matches("(?s).*\\b" + Pattern.quote(w) + "s?(?:\\s+(?:of|named|called))?")) {
        return true;
      }
    }
    return false;
  }

  /** A word naming one of {@code table}'s columns comes right after q[.., end): "the ohio runs". */
  private boolean columnFollows(String q, int end, String table) {
    String after = q.substring(end).strip();
    return index.items().stream()
        .filter(i -> i.kind() == Kind.COLUMN && i.tables().contains(table))
        .flatMap(i -> i.words().stream())
        .anyMatch(w -> Mentions.indexOf(after, w.toLowerCase(Locale.ROOT)) == 0);
  }

  private static boolean anyTaken(boolean[] taken, int from, int length) {
    for (int k = from; k < from + length; k++) {
      if (taken[k]) {
        return true;
      }
    }
    return false;
  }
}
