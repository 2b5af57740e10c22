package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Aggregation;
import dev.sonde.chatbi.QueryPlan.Having;
import dev.sonde.chatbi.QueryPlan.Order;
import dev.sonde.chatbi.QueryPlan.Output;
import dev.sonde.chatbi.Retriever.Match;
import dev.sonde.chatbi.Retriever.Retrieved;
import dev.sonde.chatbi.Retriever.ValueMatch;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One question's {@link QueryPlan} while the parser's stages build it, in their order: what the
 * question says, then what the measure, filter, ranking, grouping and ordering stages add or read.
 * A field is written by the stage its group names and read by the later ones.
 */
final class PlanDraft {
  /** A relation, the value it is anchored on and the entity whose rows it relates. */
  record Anchored(Ontology.Term term, ValueMatch anchor, String entity) {
    String table() {
      return Ontology.tableOf(term.relation().anchor());
    }
  }

  // the question: normalised, what retrieval found, the matches it says, its relation
  final String q;
  final Retrieved found;
  final List<Match> metrics;
  final List<Match> columns;
  final List<Match> tables;
  final Anchored related;
  final Aggregation said;

  // the plan: every stage adds to it
  final List<Output> measures = new ArrayList<>();
  final List<Output> dimensions = new ArrayList<>();
  final List<String> keys = new ArrayList<>();
  final List<String> filters = new ArrayList<>();
  final Set<String> used = new LinkedHashSet<>();
  final List<String> understood = new ArrayList<>();

  // the measure stage
  String countedTable;
  String measureSaid;
  boolean rankedBySuperlative;

  // the filter stage: the columns filtered on (lower case) and the time window
  final Set<String> filtered = new LinkedHashSet<>();
  TimeWindows.Window window;

  // the ranking read: the question without names, the top N, and the comparison asked for
  String ranks;
  Integer n;
  boolean superlative;
  boolean aboveAverage;
  boolean comparing;
  Double threshold;

  // the grouping stage
  Output periodOutput;

  // the ordering stage
  Having having;
  Order order;
  Integer limit;

  PlanDraft(
      String q,
      Retrieved found,
      List<Match> metrics,
      List<Match> columns,
      List<Match> tables,
      Anchored related) {
    this.q = q;
    this.found = found;
    this.metrics = metrics;
    this.columns = columns;
    this.tables = tables;
    this.related = related;
    this.said = Cues.aggregation(q);
  }

  QueryPlan plan(List<String> tablesInJoinOrder) {
    return new QueryPlan(
        dimensions,
        measures,
        measures.isEmpty() ? List.of() : keys,
        filters,
        having,
        order,
        limit,
        superlative && limit != null,
        related == null ? null : related.term().relation(),
        tablesInJoinOrder,
        understood);
  }
}
