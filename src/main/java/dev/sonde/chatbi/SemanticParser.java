package dev.sonde.chatbi;

import dev.sonde.chatbi.QueryPlan.Output;
import dev.sonde.chatbi.Retriever.Kind;
import dev.sonde.chatbi.Retriever.Match;
import dev.sonde.chatbi.Retriever.Retrieved;
import dev.sonde.chatbi.Retriever.ValueMatch;
import java.text.Normalizer;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded generator: a rule-based semantic parser from a question and what retrieval found to
 * a {@link QueryPlan}, in English, Chinese, Japanese and Korean. It reads the measure (a glossary
 * metric, a measure column with its aggregation, or a count of an entity), what to group by (the
 * entities and dimensions asked for), filters (linked values, a time window), top-N and its
 * direction, a comparison with the groups' average or a number, and shares. What it cannot place it
 * refuses, naming it, rather than answer a different question.
 *
 * <p>It runs in stages over one {@link PlanDraft}: reading what the question says (here), then
 * {@link MeasureStage}, {@link FilterStage}, {@link RankingStage}'s reading, {@link GroupingStage},
 * the measure's rewrites and {@link RankingStage}'s order; the cue words are {@link Cues}.
 */
final class SemanticParser {
  private static final Pattern QUALIFIED_COLUMN = Pattern.compile("([A-Za-z_]\\w*)\\.\\w+");

  private final Ontology ontology;
  private final SqlWriter writer;
  private final Grounding grounding;
  private final Refusals refusals;
  private final MeasureStage measures;
  private final FilterStage filters;
  private final RankingStage ranking;
  private final GroupingStage grouping;

  SemanticParser(Ontology ontology, String dialect) {
    this.ontology = ontology;
    this.writer = new SqlWriter(ontology, dialect);
    this.grounding = new Grounding(ontology);
    this.refusals = new Refusals(grounding);
    this.measures = new MeasureStage(grounding);
    this.filters = new FilterStage(grounding, writer);
    this.ranking = new RankingStage(grounding, refusals);
    this.grouping = new GroupingStage(grounding, writer);
  }

  /** The plan for {@code question}, or {@link NotUnderstood} naming what could not be placed. */
  QueryPlan parse(String question, Retrieved found, ZonedDateTime now) {
    PlanDraft d = read(Normalizer.normalize(question, Normalizer.Form.NFKC), found);
    measures.link(d);
    filters.link(d, now);
    ranking.read(d);
    grouping.link(d);
    measures.ownValuePerRow(d);
    ranking.order(d);
    measures.rowsCountedWithoutKey(d);
    WordAccount.check(d, grounding);
    return FanTrap.check(d.plan(orderTables(d.used, d.measures)), ontology);
  }

  String sql(QueryPlan plan) {
    return writer.write(plan);
  }

  /**
   * What the question says: its metrics, columns and tables, its relation; unknown names refused.
   */
  private PlanDraft read(String q, Retrieved found) {
    // what the question says counts; a likeness of meaning alone only names a missing metric
    List<Match> metrics = Grounding.matches(found, Kind.METRIC, true);
    if (metrics.isEmpty() && Cues.HOW_MUCH.matcher(q).find()) {
      metrics = Grounding.matches(found, Kind.METRIC, false);
    }
    List<Match> columns = Grounding.matches(found, Kind.COLUMN, true);
    List<Match> tables = Grounding.matches(found, Kind.TABLE, true);
    refusals.unknownNames(q, found);
    PlanDraft.Anchored related = relation(q, found);
    if (related != null) {
      // the relation says what its table's columns meant ("borders"): they are not asked for
      columns.removeIf(c -> c.item().tables().contains(related.table()));
      tables.removeIf(t -> t.item().tables().contains(related.table()));
    }
    if (found.matches().isEmpty() && found.values().isEmpty()) {
      throw new NotUnderstood(
          "what to measure or list: no metric, column, table or value of domain "
              + ontology.domain()
              + " is in the question; it knows "
              + grounding.knownWords());
    }
    return new PlanDraft(q, found, metrics, columns, tables, related);
  }

  /**
   * The relation the question reads its entity through ("states bordering texas") and the one
   * linked value it is anchored on; null without one. Two relations, or none or several anchors,
   * are refused: one grouped query cannot chain them.
   */
  private PlanDraft.Anchored relation(String q, Retrieved found) {
    List<Match> relations = Grounding.matches(found, Kind.RELATION, true);
    if (relations.isEmpty()) {
      return null;
    }
    Match said = relations.get(0);
    Ontology.Term term = grounding.term(said);
    String lower = q.toLowerCase(Locale.ROOT);
    int first = Mentions.indexOf(lower, said.said());
    int again =
        first < 0
            ? -1
            : term.words().stream()
                .mapToInt(
                    w ->
                        Mentions.indexOf(
                            lower.substring(first + said.said().length()),
                            w.toLowerCase(Locale.ROOT)))
                .max()
                .orElse(-1);
    if (relations.size() > 1 || again >= 0) {
      throw new NotUnderstood(
          "'"
              + said.said()
              + "' of what is itself related: the embedded parser follows one relation; ask in two questions, or configure a model (chatbi.llm)");
    }
    Ontology.Join anchorJoin = ontology.anchorJoin(term.relation());
    String key =
        anchorJoin.from().get(0).equalsIgnoreCase(term.relation().anchor())
            ? anchorJoin.to().get(0)
            : anchorJoin.from().get(0);
    List<ValueMatch> anchors =
        found.values().stream().filter(v -> v.column().equalsIgnoreCase(key)).toList();
    if (anchors.size() != 1) {
      throw new NotUnderstood(
          "'"
              + said.said()
              + "': name the one "
              + Ontology.tableOf(key)
              + " the others are related to (one value of "
              + key
              + ")");
    }
    return new PlanDraft.Anchored(term, anchors.get(0), Ontology.tableOf(key));
  }

  /** The fact table (the measure's first) first, so joins fan out from it. */
  private List<String> orderTables(Set<String> used, List<Output> measures) {
    List<String> out = new ArrayList<>();
    if (!measures.isEmpty()) {
      Matcher m = QUALIFIED_COLUMN.matcher(measures.get(0).expression());
      if (m.find() && ontology.entity(m.group(1)) != null) {
        out.add(ontology.entity(m.group(1)).table());
      }
    }
    for (String t : used) {
      if (out.stream().noneMatch(x -> x.equalsIgnoreCase(t))) {
        out.add(t);
      }
    }
    return out;
  }
}
