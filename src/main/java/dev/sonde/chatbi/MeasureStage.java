package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Aggregation;
import dev.sonde.chatbi.Ontology.Attribute;
import dev.sonde.chatbi.Ontology.Cardinality;
import dev.sonde.chatbi.Ontology.Entity;
import dev.sonde.chatbi.Ontology.Role;
import dev.sonde.chatbi.QueryPlan.Having;
import dev.sonde.chatbi.QueryPlan.Output;
import dev.sonde.chatbi.Retriever.Match;
import dev.sonde.core.Language;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parser's measure: a glossary metric, a measure column with its aggregation, the distinct
 * values of a column, or a count of an entity; and, once the plan is grouped, the rewrites that
 * keep it honest (a row's own value per row, a count of rows where rows have no key).
 */
final class MeasureStage {
  private static final Pattern OWN_SUM =
      Pattern.compile("SUM\\(([A-Za-z_]\\w*)\\.([A-Za-z_]\\w*)\\)");
  private static final Pattern SUM_OF = Pattern.compile("(?is)\\s*SUM\\((.*)\\)\\s*");

  private final Grounding grounding;

  MeasureStage(Grounding grounding) {
    this.grounding = grounding;
  }

  /** The measure the question asks for, if any: a metric, else a measure column, else a count. */
  void link(PlanDraft d) {
    if (!d.metrics.isEmpty()) {
      metric(d);
    } else if (!measureColumn(d)) {
      count(d);
    }
  }

  private void metric(PlanDraft d) {
    Ontology.Term term = grounding.term(d.metrics.get(0));
    Matcher sum = SUM_OF.matcher(term.metric());
    if (d.said == Aggregation.AVG && sum.matches()) {
      // "the average invoice total": the metric's rows averaged, not summed
      d.measures.add(
          new Output("AVG(" + sum.group(1) + ")", "avg_" + Grounding.alias(term.term())));
    } else {
      d.measures.add(new Output(term.metric(), Grounding.alias(term.term())));
    }
    d.used.addAll(d.metrics.get(0).item().tables());
    d.understood.add("measure: " + term.term() + " = " + term.metric());
  }

  /**
   * A measure column, aggregated as said or by its default; false when rows are counted instead.
   */
  private boolean measureColumn(PlanDraft d) {
    // "the population of the largest state": the superlative's own column ranks, others show
    Match measureColumn =
        d.columns.stream()
            .filter(m -> grounding.role(m) == Role.MEASURE && m.said() != null)
            .filter(m -> Cues.SUPERLATIVE.matcher(m.said()).matches())
            .findFirst()
            .orElse(
                d.columns.stream()
                    .filter(m -> grounding.role(m) == Role.MEASURE)
                    .findFirst()
                    .orElse(null));
    d.measureSaid = measureColumn == null ? null : measureColumn.said();
    d.rankedBySuperlative =
        d.measureSaid != null && Cues.SUPERLATIVE.matcher(d.measureSaid).matches();
    // "how many people" asks for a measure of people, not a count of rows
    boolean countOfMeasure =
        measureColumn != null
            && d.said == Aggregation.COUNT
            && rightAfter(d.q, Cues.COUNT, measureColumn);
    if (measureColumn == null || d.said == Aggregation.COUNT && !countOfMeasure) {
      return false;
    }
    Attribute a = grounding.attribute(measureColumn);
    Aggregation aggregation =
        d.said != null && !countOfMeasure
            ? d.said
            : a.aggregation() == null ? Aggregation.SUM : a.aggregation();
    String column = Grounding.column(measureColumn);
    d.measures.add(
        new Output(
            sql(aggregation, column),
            aggregation.name().toLowerCase(Locale.ROOT) + "_" + Grounding.alias(a.column())));
    d.used.add(measureColumn.item().tables().iterator().next());
    d.columns.remove(measureColumn);
    d.understood.add("measure: " + sql(aggregation, column));
    return true;
  }

  /** The distinct values of a column, or the rows of a table counted, when a count is asked for. */
  private void count(PlanDraft d) {
    if (d.said == Aggregation.COUNT_DISTINCT && dimensionSaid(d.columns) != null) {
      // "how many different countries": the distinct values of a column, not groups of it
      Match dimension = dimensionSaid(d.columns);
      String column = Grounding.column(dimension);
      d.measures.add(
          new Output(
              "COUNT(DISTINCT " + column + ")",
              "distinct_" + Grounding.alias(Ontology.columnOf(column))));
      d.used.add(Ontology.tableOf(column));
      d.columns.remove(dimension);
      d.understood.add("measure: distinct " + column);
    } else if (d.said == Aggregation.COUNT || d.said == Aggregation.COUNT_DISTINCT) {
      Match counted = counted(d.q, Cues.COUNT, d.tables, false);
      if (counted == null) {
        throw new NotUnderstood(
            "what to count: name a table this domain knows, e.g. "
                + grounding.ontology().entities().stream().map(Entity::table).toList());
      }
      countOf(counted, d);
    } else if (!d.tables.isEmpty()
        && d.tables.size() + dimensions(d.columns) >= 2
        && Cues.RANK_OR_COMPARE.matcher(d.q).find()) {
      // "which artists have the most tracks", "countries with more than 5 customers": a count
      // of the entity next to the superlative or comparison, per the other one
      // Chinese, Japanese and Korean say what is counted before the superlative (曲目最多的艺术家)
      countOf(counted(d.q, Cues.RANK_OR_COMPARE, d.tables, Language.detect(d.q) != Language.EN), d);
    }
  }

  /** The count of {@code counted}'s rows (by its key) as the measure. */
  private void countOf(Match counted, PlanDraft d) {
    String countedTable = counted.item().tables().iterator().next();
    d.measures.add(
        new Output(
            "COUNT(DISTINCT " + grounding.key(countedTable) + ")",
            "count_" + Grounding.alias(countedTable)));
    d.used.add(countedTable);
    d.tables.remove(counted);
    d.understood.add("measure: count of " + countedTable);
    d.countedTable = countedTable;
  }

  /**
   * A row's own column per row of its table is its value, however many join rows repeat it: one
   * group per row of the column's table (its key or label is grouped by) takes its MAX, not a SUM.
   */
  void ownValuePerRow(PlanDraft d) {
    if (d.said != null || d.measures.isEmpty()) {
      return;
    }
    Matcher own = OWN_SUM.matcher(d.measures.get(0).expression());
    if (own.matches() && d.keys.contains(grounding.key(own.group(1)))) {
      String value = own.group(1) + "." + own.group(2);
      d.measures.set(0, new Output("MAX(" + value + ")", Grounding.alias(own.group(2))));
      d.understood.add("measure: each " + own.group(1) + "'s " + own.group(2));
    }
  }

  /** A count by key of a table without one is a count of its rows ({@link #countsRows}). */
  void rowsCountedWithoutKey(PlanDraft d) {
    if (d.countedTable == null || !countsRows(d.countedTable, d)) {
      return;
    }
    String counted = d.measures.get(0).expression();
    d.measures.replaceAll(m -> new Output(m.expression().replace(counted, "COUNT(*)"), m.alias()));
    if (d.having != null) {
      d.having =
          new Having(
              d.having.measure().replace(counted, "COUNT(*)"),
              d.having.operator(),
              d.having.threshold());
    }
  }

  /**
   * A table without an identifier counts its rows: two cities of one name are two cities. Only when
   * every other table joins it to one row (a city's state), so no join repeats a row.
   */
  private boolean countsRows(String table, PlanDraft d) {
    Ontology ontology = grounding.ontology();
    Entity e = ontology.entity(table);
    if (e.attributes().stream().anyMatch(a -> a.role() == Role.IDENTIFIER)) {
      return false;
    }
    for (String other : d.used) {
      if (other.equalsIgnoreCase(table)) {
        continue;
      }
      Cardinality c = ontology.cardinality(table, other);
      boolean toOne = c == Cardinality.MANY_TO_ONE || c == Cardinality.ONE_TO_ONE;
      if (!toOne) {
        return false;
      }
    }
    return true;
  }

  private Match dimensionSaid(List<Match> columns) {
    return columns.stream()
        .filter(m -> grounding.role(m) == Role.DIMENSION)
        .findFirst()
        .orElse(null);
  }

  private int dimensions(List<Match> columns) {
    return (int) columns.stream().filter(m -> grounding.role(m) == Role.DIMENSION).count();
  }

  /**
   * The table a count is of: the one named nearest after the count word ("how many tracks", "有多少
   * 首歌曲"), else nearest before it ("歌曲数量").
   */
  private static Match counted(
      String q, Pattern cuePattern, List<Match> tables, boolean beforeFirst) {
    Matcher cue = cuePattern.matcher(q);
    if (tables.isEmpty() || !cue.find()) {
      return tables.isEmpty() ? null : tables.get(0);
    }
    // English counts what follows the last cue: "the top 5 customers with the most orders"
    int lastStart = cue.start();
    int lastEnd = cue.end();
    while (!beforeFirst && cue.find()) {
      lastStart = cue.start();
      lastEnd = cue.end();
    }
    String lower = q.toLowerCase(Locale.ROOT);
    Match best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (Match t : tables) {
      // where the question says it, plural or not ("tracks" for "track")
      int at = t.said() == null ? -1 : Mentions.indexOf(lower, t.said());
      if (at < 0) {
        continue;
      }
      // the preferred side is nearer than any distance on the other
      int after = at >= lastEnd ? at - lastEnd : -1;
      int before = at < lastStart ? lastStart - at : -1;
      int distance =
          beforeFirst
              ? (before >= 0 ? before : 100_000 + Math.max(after, 0))
              : (after >= 0 ? after : 100_000 + Math.max(before, 0));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = t;
      }
    }
    return best != null ? best : tables.get(0);
  }

  /** The match's word comes within two words after the cue ("how many people"). */
  private static boolean rightAfter(String q, Pattern cue, Match m) {
    Matcher c = cue.matcher(q);
    if (!c.find() || m.said() == null) {
      return false;
    }
    int at = Mentions.indexOf(q.toLowerCase(Locale.ROOT), m.said());
    return at >= c.end() && q.substring(c.end(), at).trim().split("\\s+").length <= 2;
  }

  private static String sql(Aggregation aggregation, String column) {
    return switch (aggregation) {
      case COUNT_DISTINCT -> "COUNT(DISTINCT " + column + ")";
      default -> aggregation.name() + "(" + column + ")";
    };
  }
}
