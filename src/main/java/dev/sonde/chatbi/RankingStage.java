package dev.sonde.chatbi;

import dev.sonde.chatbi.QueryPlan.Having;
import dev.sonde.chatbi.QueryPlan.Order;
import dev.sonde.chatbi.QueryPlan.Output;
import dev.sonde.chatbi.Retriever.Retrieved;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;

/**
 * The parser's ranking and comparison: first what the question asks (a top N, a superlative, a
 * comparison with the groups' average or a number), refusing what one plan cannot say; then, once
 * the plan is grouped, its condition on the groups, a share of the total, its order and its limit.
 */
final class RankingStage {
  /** A list without a top N shows at most this many rows. */
  private final Grounding grounding;

  private final Refusals refusals;

  RankingStage(Grounding grounding, Refusals refusals) {
    this.grounding = grounding;
    this.refusals = refusals;
  }

  /** The top N, superlative and comparison the question asks for, read from its ranking words. */
  void read(PlanDraft d) {
    d.ranks = withoutNames(d.q, d.found);
    d.n = Cues.topN(d.q);
    d.superlative = d.n == null && Cues.SUPERLATIVE.matcher(d.ranks).find();
    Refusals.whatOnePlanCannotSay(d.q, d.ranks);
    if (d.n == null && !d.superlative && !Cues.EVERY.matcher(d.q).find()) {
      refusals.unscopedSuperlativeNames(d.found);
    }
    d.aboveAverage = Cues.ABOVE_AVERAGE.matcher(d.q).find();
    d.comparing = d.aboveAverage || Cues.BELOW_AVERAGE.matcher(d.q).find();
    d.threshold = Cues.threshold(d.q);
  }

  /** The condition on the groups, a share of the total, the order and the limit. */
  void order(PlanDraft d) {
    having(d);
    if (Cues.SHARE.matcher(d.q).find() && !d.measures.isEmpty() && !d.dimensions.isEmpty()) {
      Output m = d.measures.get(0);
      d.measures.add(
          new Output(
              "ROUND(100.0 * " + m.expression() + " / SUM(" + m.expression() + ") OVER (), 2)",
              "share_pct"));
      d.understood.add("share of the total, in percent");
    }
    boolean ascending = Cues.ASCENDING.matcher(d.ranks).find();
    if (d.periodOutput != null && d.n == null && !d.superlative) {
      d.order = new Order(d.periodOutput.alias(), false);
    } else if (!d.measures.isEmpty() && !d.dimensions.isEmpty()) {
      d.order = new Order(d.measures.get(0).alias(), !ascending);
      if (d.n != null || d.superlative) {
        d.limit = d.n != null ? d.n : 1;
        d.understood.add((ascending ? "bottom " : "top ") + d.limit);
      }
    } else if (d.measures.isEmpty()) {
      Matcher ranking = Cues.RANKING.matcher(d.ranks);
      if (ranking.find()) {
        throw new NotUnderstood(
            "'"
                + ranking.group()
                + "': there is nothing measured to rank by; name a metric or"
                + " measure column of domain "
                + grounding.ontology().domain());
      }
      // a list without N is cut by the answer's row cap, which says so (truncated, actualRows)
      d.limit = d.n;
    }
  }

  /** The groups above or below their average, or above or below a number. */
  private static void having(PlanDraft d) {
    if (d.comparing) {
      if (d.measures.isEmpty() || d.dimensions.isEmpty()) {
        throw new NotUnderstood("a comparison with the average needs something measured per group");
      }
      d.having = new Having(d.measures.get(0).expression(), d.aboveAverage ? ">" : "<", null);
      d.understood.add("groups " + d.having.operator() + " the average over the groups");
    } else if (d.threshold != null) {
      if (d.measures.isEmpty() || d.dimensions.isEmpty()) {
        throw new NotUnderstood(
            "the condition on "
                + number(d.threshold)
                + " has nothing measured per group to apply to");
      }
      d.having =
          new Having(
              d.measures.get(0).expression(),
              Cues.MORE_THAN_NUMBER.matcher(d.q).find() ? ">" : "<",
              d.threshold);
      d.understood.add("groups " + d.having.operator() + " " + number(d.threshold));
    }
  }

  /**
   * The question without the words of values and of what is not measured: "the highest point" names
   * a column and "Best Buy" a store; neither ranks anything.
   */
  private String withoutNames(String q, Retrieved found) {
    List<String> names = new ArrayList<>();
    found.values().forEach(v -> names.add(v.text().toLowerCase(Locale.ROOT)));
    grounding.namingColumns(found).forEach(m -> names.add(m.said()));
    StringBuilder out = new StringBuilder(q);
    String lower = q.toLowerCase(Locale.ROOT);
    for (String name : names) {
      int at = Mentions.indexOf(lower, name);
      if (at >= 0 && lower.length() == q.length()) {
        for (int k = at; k < at + name.length(); k++) {
          out.setCharAt(k, ' ');
        }
      }
    }
    return out.toString();
  }

  private static String number(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
