package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Entity;
import dev.sonde.chatbi.Ontology.Role;
import dev.sonde.chatbi.QueryPlan.Output;
import dev.sonde.chatbi.Retriever.Match;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The parser's dimensions: what to group by (with a measure) or to list (without one), from the
 * entities and columns the question names and the period it asks per.
 */
final class GroupingStage {
  private final Grounding grounding;
  private final SqlWriter writer;

  GroupingStage(Grounding grounding, SqlWriter writer) {
    this.grounding = grounding;
    this.writer = writer;
  }

  void link(PlanDraft d) {
    perEntity(d);
    perColumn(d);
    perPeriod(d);
    if (d.related != null && d.measures.isEmpty() && d.dimensions.isEmpty()) {
      // "what borders texas": the related rows themselves
      Entity e = grounding.ontology().entity(d.related.entity());
      d.dimensions.add(
          new Output(e.table() + "." + e.label(), Grounding.alias(e.table() + "_" + e.label())));
    }
    if (d.measures.isEmpty() && d.dimensions.isEmpty()) {
      throw new NotUnderstood(
          "what to measure or list: no metric, column or table of domain "
              + grounding.ontology().domain()
              + " is in the question; it knows "
              + grounding.knownWords());
    }
  }

  /** Each entity named, by its label, unless it only scopes a filter or holds the measure. */
  private void perEntity(PlanDraft d) {
    boolean asked =
        Cues.GROUPING.matcher(d.q).find()
            || Cues.LISTING.matcher(d.q).find()
            || d.n != null
            || d.superlative
            || d.comparing
            || d.threshold != null;
    for (Match t : d.tables) {
      String table = t.item().tables().iterator().next();
      // one holding the measure is still per when ranked by its own column: "the city with the
      // largest population"
      // "the populations of the states": a plural measure is one per row of its table
      boolean ranked =
          (d.n != null || d.superlative || pluralMeasure(d.q, d.measureSaid))
              && ownMeasure(table, d.measures);
      boolean per =
          d.measures.isEmpty()
              || ranked
              || !isFact(table, d.measures) && (asked || !d.used.contains(table));
      Entity e = grounding.ontology().entity(table);
      if (!per || e.label() == null) {
        continue;
      }
      d.dimensions.add(
          new Output(table + "." + e.label(), Grounding.alias(table + "_" + e.label())));
      d.keys.add(grounding.key(table));
      d.used.add(table);
      d.understood.add("per " + table + " (" + e.label() + ")");
    }
  }

  /** Each column named that is not measured, filtered on, an identifier or a join column. */
  private void perColumn(PlanDraft d) {
    for (Match c : d.columns) {
      String column = Grounding.column(c);
      // a measure column or one inside the measure is what is measured, not what it is per
      // nor is a join column to a table the answer already has ("run through": the river's states)
      if (d.filtered.contains(column.toLowerCase(Locale.ROOT))
          || grounding.role(c) == Role.IDENTIFIER
          || grounding.role(c) == Role.MEASURE && !d.measures.isEmpty() && !d.rankedBySuperlative
          || d.measures.stream().anyMatch(m -> m.expression().contains(column))
          || joinsUsedTable(column, d.used)) {
        continue;
      }
      if (grounding.role(c) == Role.TIME && d.window != null) {
        continue;
      }
      d.dimensions.add(new Output(column, Grounding.alias(column.replace('.', '_'))));
      d.used.add(Ontology.tableOf(column));
      d.understood.add((d.measures.isEmpty() ? "show " : "per ") + column);
    }
  }

  /** Per year, per month, 每月, 월별: a period of the measure's time column, in time order. */
  private void perPeriod(PlanDraft d) {
    String period = Cues.period(d.q);
    if (period == null) {
      return;
    }
    String time = grounding.timeColumn(d.metrics, d.used);
    if (d.measures.isEmpty() || time == null) {
      throw new NotUnderstood("'per " + period + "' needs something measured with a time column");
    }
    d.periodOutput = new Output(writer.period(period, time), period);
    d.dimensions.add(0, d.periodOutput);
    d.used.add(Ontology.tableOf(time));
    d.understood.add("per " + period + " of " + time);
  }

  /** The measure's word is said in the plural: "the populations of". */
  private static boolean pluralMeasure(String q, String said) {
    return said != null
        && !said.endsWith("s")
        && Pattern.compile("(?i)\\b" + Pattern.quote(said) + "s\\b").matcher(q).find();
  }

  /** The measure is one of the table's own columns, aggregated (not a metric across tables). */
  private static boolean ownMeasure(String table, List<Output> measures) {
    return !measures.isEmpty()
        && measures
            .get(0)
            .expression()
            .matches("(?i)[A-Z_]+\\(\\s*" + Pattern.quote(table) + "\\.\\w+\\s*\\)");
  }

  private static boolean isFact(String table, List<Output> measures) {
    return measures.stream().anyMatch(m -> m.expression().contains(table + "."));
  }

  /** {@code column} joins one of the tables the answer already uses. */
  private boolean joinsUsedTable(String column, Set<String> used) {
    for (Ontology.Join j : grounding.ontology().joins()) {
      for (int i = 0; i < j.from().size(); i++) {
        String partner =
            j.from().get(i).equalsIgnoreCase(column)
                ? j.toTable()
                : j.to().get(i).equalsIgnoreCase(column) ? j.fromTable() : null;
        if (partner != null && used.stream().anyMatch(partner::equalsIgnoreCase)) {
          return true;
        }
      }
    }
    return false;
  }
}
