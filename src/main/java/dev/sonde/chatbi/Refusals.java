package dev.sonde.chatbi;

import dev.sonde.chatbi.Retriever.Retrieved;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * What the parser refuses by name rather than answer as a different question: names the domain does
 * not know, what one grouped query cannot say, and superlative column names with nothing to scope
 * them. Each throws {@link NotUnderstood}.
 */
final class Refusals {
  private final Grounding grounding;

  Refusals(Grounding grounding) {
    this.grounding = grounding;
  }

  /**
   * An English question's capitalised words that are neither its first word nor anything the domain
   * knows ("sales in Paris") would be silently dropped filters: refuse them by name.
   */
  void unknownNames(String q, Retrieved found) {
    Set<String> known = new LinkedHashSet<>();
    found.values().forEach(v -> known.add(v.text().toLowerCase(Locale.ROOT)));
    found
        .matches()
        .forEach(x -> x.item().words().forEach(w -> known.add(w.toLowerCase(Locale.ROOT))));
    List<String> unknown = unknownCapitalised(q, known);
    unknownAfterPrepositions(q, known, unknown);
    if (!unknown.isEmpty()) {
      throw new NotUnderstood(
          String.join(", ", unknown.stream().map(w -> "'" + w + "'").toList())
              + (unknown.size() == 1 ? " is" : " are")
              + " not a value or name domain "
              + grounding.ontology().domain()
              + " knows; add it to the ontology's values or glossary");
    }
  }

  private static List<String> unknownCapitalised(String q, Set<String> known) {
    Matcher m = Cues.CAPITALISED.matcher(q);
    List<String> unknown = new ArrayList<>();
    while (m.find()) {
      String word = m.group(1);
      boolean first = q.substring(0, m.start()).isBlank();
      String lower = word.toLowerCase(Locale.ROOT);
      boolean partOfKnown = known.stream().anyMatch(k -> Mentions.indexOf(k, lower) >= 0);
      if (!first && !partOfKnown && !Cues.COMMON_CAPITALISED.contains(word)) {
        unknown.add(word);
      }
    }
    return unknown;
  }

  /** Lower-case names too, where a name goes: "the population of denver", "people in austin". */
  private void unknownAfterPrepositions(String q, Set<String> known, List<String> unknown) {
    Matcher named = Cues.AFTER_PREPOSITION.matcher(q.toLowerCase(Locale.ROOT));
    List<String> domainWords = domainWords();
    while (named.find()) {
      String word = named.group(1);
      boolean explained =
          Cues.FUNCTION_WORDS.contains(word)
              || unknown.stream().anyMatch(u -> u.equalsIgnoreCase(word))
              || known.stream().anyMatch(k -> Mentions.indexOf(k, word) >= 0)
              || domainWords.stream().anyMatch(k -> Mentions.indexOf(k, word) >= 0)
              || TimeWindows.find(word, ZonedDateTime.now()) != null;
      if (!explained) {
        unknown.add(word);
      }
    }
  }

  /** Every word the domain names anything with, lower case. */
  private List<String> domainWords() {
    Ontology ontology = grounding.ontology();
    List<String> out = new ArrayList<>();
    ontology.glossary().forEach(t -> t.words().forEach(w -> out.add(w.toLowerCase(Locale.ROOT))));
    ontology.entities().forEach(e -> out.add(OntologyBootstrap.words(e.table())));
    ontology
        .entities()
        .forEach(e -> e.attributes().forEach(a -> out.add(OntologyBootstrap.words(a.column()))));
    ontology
        .values()
        .forEach(
            d ->
                d.entries()
                    .forEach(
                        v -> {
                          out.add(v.value().toLowerCase(Locale.ROOT));
                          v.synonyms().forEach(x -> out.add(x.toLowerCase(Locale.ROOT)));
                        }));
    return out;
  }

  /**
   * Questions whose meaning a single grouped query cannot hold are refused by name rather than
   * answered as a different question: a negation, two rankings, a comparison with another thing's
   * value.
   */
  static void whatOnePlanCannotSay(String q, String ranks) {
    Matcher negation = Cues.NEGATION.matcher(ranks);
    if (negation.find()) {
      throw new NotUnderstood(
          "'"
              + negation.group()
              + "': the embedded parser does not answer negations; ask for what is, or configure a model (chatbi.llm)");
    }
    Matcher superlatives = Cues.SUPERLATIVE.matcher(ranks);
    List<String> rankings = new ArrayList<>();
    // "the top 5 customers with the most orders": "top" marks the ranking "most" says
    boolean topMarks = Cues.TOP_WITH_THE.matcher(ranks).find();
    while (superlatives.find()) {
      if (!(topMarks && superlatives.group().equalsIgnoreCase("top"))) {
        rankings.add(superlatives.group());
      }
    }
    if (rankings.size() > 1) {
      throw new NotUnderstood(
          String.join(" and ", rankings.stream().map(r -> "'" + r + "'").toList())
              + ": the embedded parser ranks by one thing at a time; ask in two questions, or configure a model (chatbi.llm)");
    }
    Matcher than = Cues.THAN.matcher(q);
    if (than.find()
        && !Cues.ABOVE_AVERAGE.matcher(q).find()
        && !Cues.BELOW_AVERAGE.matcher(q).find()
        && Cues.threshold(q) == null) {
      throw new NotUnderstood(
          "'"
              + than.group()
              + "': the embedded parser compares with an average or a number, not with another thing's value; configure a model (chatbi.llm) for that");
    }
  }

  /**
   * A column named with a superlative ("highest point") read for every row, with nothing to scope
   * it: "the highest point in the us" means the highest of them, which the column's name does not
   * rank. Refused unless a value says whose it is ("the highest point in texas"), something else
   * ranks the rows ("in the smallest state") or every row is asked for ("of all the states").
   */
  void unscopedSuperlativeNames(Retrieved found) {
    if (!found.values().isEmpty()) {
      return;
    }
    grounding
        .namingColumns(found)
        .filter(m -> Cues.SUPERLATIVE.matcher(m.said()).find())
        .findFirst()
        .ifPresent(
            m -> {
              throw new NotUnderstood(
                  "'"
                      + m.said()
                      + "' names a column of each "
                      + m.item().tables().iterator().next()
                      + ", not which is highest or lowest overall; name one (a value), or configure a model (chatbi.llm)");
            });
  }
}
