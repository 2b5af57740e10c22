package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Cardinality;
import dev.sonde.chatbi.Ontology.Join;
import dev.sonde.chatbi.QueryPlan.Output;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A measure is summed at its own grain, whatever the grouping joins through (issue 21's fan trap).
 * A measure's grain is the table of its columns whose rows it is additive over (the "many" end of
 * its own columns' joins). When the plan's join tree holds a join whose "one" end is on the grain's
 * side, every grain row is repeated once per row of the "many" end (an invoice's total once per
 * line), so a SUM, an AVG or a row count over it is inflated. Such a measure is replaced by the
 * domain's metric of the same name at that finer grain ({@code track sales} for {@code sales} when
 * the join passes through lines), or the question is refused, saying why.
 */
final class FanTrap {
  private static final Pattern QUALIFIED_COLUMN = Pattern.compile("([A-Za-z_]\\w*)\\.\\w+");

  private FanTrap() {}

  /** {@code plan} with each fanned measure at its finer grain, or a refusal naming the trap. */
  static QueryPlan check(QueryPlan plan, Ontology ontology) {
    JoinTree tree = JoinTree.connect(ontology, plan.tables(), SqlWriter.MAX_HOPS);
    List<Output> measures = new ArrayList<>();
    List<String> understood = new ArrayList<>(plan.understood());
    java.util.Map<String, String> replaced = new java.util.HashMap<>();
    for (Output measure : plan.measures()) {
      Join fanning = fanning(measure.expression(), tree.joins());
      if (fanning == null) {
        measures.add(measure);
        continue;
      }
      Ontology.Term finer = finerMetric(measure, fanning, ontology);
      if (finer == null) {
        throw new NotUnderstood(
            "summing "
                + measure.expression()
                + " over the join through "
                + fanning.fromTable()
                + " would count each "
                + fanning.toTable()
                + " row once per "
                + fanning.fromTable()
                + " row of it (the fan trap); ask for a measure of "
                + fanning.fromTable()
                + ", or group by something each "
                + fanning.toTable()
                + " has one of");
      }
      measures.add(new Output(finer.metric(), measure.alias()));
      replaced.put(measure.expression(), finer.metric());
      understood.add(
          "measure at the grain of "
              + fanning.fromTable()
              + ": "
              + finer.term()
              + " = "
              + finer.metric());
    }
    if (replaced.isEmpty()) {
      return plan;
    }
    QueryPlan.Having having = plan.having();
    return new QueryPlan(
        plan.dimensions(),
        measures,
        plan.keys(),
        plan.filters(),
        having == null
            ? null
            : new QueryPlan.Having(
                replaced.getOrDefault(having.measure(), having.measure()),
                having.operator(),
                having.threshold()),
        plan.order(),
        plan.limit(),
        plan.ties(),
        plan.relation(),
        plan.tables(),
        understood);
  }

  /**
   * The join that repeats the rows of {@code expression}'s grain, or null: one whose "one" end lies
   * on the grain's side of the tree. Minimums, maximums and distinct counts are not changed by
   * repeated rows.
   */
  static Join fanning(String expression, List<Join> joins) {
    String upper = expression.toUpperCase(Locale.ROOT).replace(" ", "");
    if (upper.startsWith("MIN(")
        || upper.startsWith("MAX(")
        || upper.startsWith("COUNT(DISTINCT")) {
      return null;
    }
    Set<String> tables = new LinkedHashSet<>();
    Matcher m = QUALIFIED_COLUMN.matcher(expression);
    while (m.find()) {
      tables.add(m.group(1).toLowerCase(Locale.ROOT));
    }
    String grain = grain(tables, joins);
    if (grain == null) {
      return null;
    }
    for (Join j : joins) {
      String one = one(j);
      String many = many(j);
      if (one == null) {
        continue;
      }
      // the grain is on the one end's side when the path from it to the many end crosses j there
      if (side(grain, j, joins).contains(one) && !tables.contains(many)) {
        return j;
      }
    }
    return null;
  }

  /** The table of {@code tables} no other of them is the many end of: the measure's own rows. */
  private static String grain(Set<String> tables, List<Join> joins) {
    for (String candidate : tables) {
      boolean finest = true;
      for (Join j : joins) {
        if (candidate.equals(one(j)) && tables.contains(many(j))) {
          finest = false;
        }
      }
      if (finest) {
        return candidate;
      }
    }
    return tables.isEmpty() ? null : tables.iterator().next();
  }

  private static String one(Join j) {
    return j.cardinality() == Cardinality.ONE_TO_MANY
        ? j.fromTable().toLowerCase(Locale.ROOT)
        : j.cardinality() == Cardinality.MANY_TO_ONE ? j.toTable().toLowerCase(Locale.ROOT) : null;
  }

  private static String many(Join j) {
    return j.cardinality() == Cardinality.ONE_TO_MANY
        ? j.toTable().toLowerCase(Locale.ROOT)
        : j.fromTable().toLowerCase(Locale.ROOT);
  }

  /** The tables reachable from {@code start} in the tree without crossing {@code cut}. */
  private static Set<String> side(String start, Join cut, List<Join> joins) {
    Set<String> seen = new LinkedHashSet<>(List.of(start));
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Join j : joins) {
        if (j == cut) {
          continue;
        }
        String a = j.fromTable().toLowerCase(Locale.ROOT);
        String b = j.toTable().toLowerCase(Locale.ROOT);
        if (seen.contains(a) && seen.add(b) || seen.contains(b) && seen.add(a)) {
          grew = true;
        }
      }
    }
    return seen;
  }

  /**
   * The domain's metric for the same thing at the fanning join's finer grain: a glossary metric
   * whose columns are those of the many end and whose name ends with the measure's own ({@code
   * track sales} for {@code sales}); null when there is none.
   */
  private static Ontology.Term finerMetric(Output measure, Join fanning, Ontology ontology) {
    Ontology.Term coarse =
        ontology.glossary().stream()
            .filter(t -> t.metric() != null && t.metric().equals(measure.expression()))
            .findFirst()
            .orElse(null);
    if (coarse == null) {
      return null;
    }
    String many = many(fanning);
    for (Ontology.Term t : ontology.glossary()) {
      if (t.metric() == null || t == coarse) {
        continue;
      }
      Set<String> tables = new LinkedHashSet<>();
      Matcher m = QUALIFIED_COLUMN.matcher(t.metric());
      while (m.find()) {
        tables.add(m.group(1).toLowerCase(Locale.ROOT));
      }
      String name = t.term().toLowerCase(Locale.ROOT);
      if (tables.equals(Set.of(many))
          && name.endsWith(" " + coarse.term().toLowerCase(Locale.ROOT))) {
        return t;
      }
    }
    return null;
  }
}
