package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Attribute;
import dev.sonde.chatbi.Ontology.Entity;
import dev.sonde.chatbi.Ontology.Role;
import dev.sonde.chatbi.Retriever.Kind;
import dev.sonde.chatbi.Retriever.Match;
import dev.sonde.chatbi.Retriever.Retrieved;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What the parser's stages look up in the ontology for what retrieval found: a match's glossary
 * term, column, attribute and role, a table's key, the time column, and the SQL aliases they get.
 */
final class Grounding {
  private final Ontology ontology;

  Grounding(Ontology ontology) {
    this.ontology = ontology;
  }

  Ontology ontology() {
    return ontology;
  }

  /** The matches of {@code kind}; {@code said}: only those the question says by a word. */
  static List<Match> matches(Retrieved found, Kind kind, boolean said) {
    return new ArrayList<>(
        found.matches().stream()
            .filter(m -> m.item().kind() == kind && (!said || m.lexical() > 0))
            .toList());
  }

  /** The columns the question says that are not measured: "the highest point" only names one. */
  Stream<Match> namingColumns(Retrieved found) {
    return found.matches().stream()
        .filter(m -> m.said() != null && m.lexical() > 0)
        .filter(m -> m.item().kind() == Kind.COLUMN && role(m) != Role.MEASURE);
  }

  /** The glossary term of a metric, filter or relation match. */
  Ontology.Term term(Match match) {
    String key = match.item().key();
    String name = key.substring(key.indexOf(' ') + 1);
    return ontology.glossary().stream()
        .filter(
            t ->
                (t.metric() != null || t.filter() != null || t.relation() != null)
                    && t.term().equals(name))
        .findFirst()
        .orElseThrow();
  }

  static String column(Match column) {
    return column.item().key().substring("column ".length());
  }

  Attribute attribute(Match column) {
    String qualified = column(column);
    return ontology.entity(Ontology.tableOf(qualified)).attribute(Ontology.columnOf(qualified));
  }

  Role role(Match column) {
    return attribute(column).role();
  }

  /** A table's identifier column, else its label, else {@code *}. */
  String key(String table) {
    Entity e = ontology.entity(table);
    return e.attributes().stream()
        .filter(a -> a.role() == Role.IDENTIFIER)
        .findFirst()
        .map(a -> e.table() + "." + a.column())
        .orElse(e.label() == null ? "*" : e.table() + "." + e.label());
  }

  /** The metric's time column, else the first time column of the tables used; else null. */
  String timeColumn(List<Match> metrics, Set<String> used) {
    if (!metrics.isEmpty() && term(metrics.get(0)).time() != null) {
      return term(metrics.get(0)).time();
    }
    for (String table : used) {
      Entity e = ontology.entity(table);
      for (Attribute a : e.attributes()) {
        if (a.role() == Role.TIME) {
          return e.table() + "." + a.column();
        }
      }
    }
    return null;
  }

  /** A few glossary terms, for a refusal to suggest. */
  List<String> knownWords() {
    List<String> out = new ArrayList<>();
    ontology.glossary().stream().limit(8).forEach(t -> out.add(t.term()));
    return out;
  }

  /** A SQL alias from a name: lower-case letters, digits and underscores. */
  static String alias(String name) {
    String a = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
    return a.isEmpty() || Character.isDigit(a.charAt(0)) ? "v_" + a : a;
  }
}
