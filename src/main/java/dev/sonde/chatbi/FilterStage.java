package dev.sonde.chatbi;

import dev.sonde.chatbi.Retriever.Kind;
import dev.sonde.chatbi.Retriever.Match;
import dev.sonde.chatbi.Retriever.ValueMatch;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parser's filters: the linked values (the relation's anchor among them), the glossary's named
 * conditions, then the time window the question says.
 */
final class FilterStage {
  private final Grounding grounding;
  private final SqlWriter writer;

  FilterStage(Grounding grounding, SqlWriter writer) {
    this.grounding = grounding;
    this.writer = writer;
  }

  void link(PlanDraft d, ZonedDateTime now) {
    values(d);
    for (Match f : Grounding.matches(d.found, Kind.FILTER, true)) {
      Ontology.Term term = grounding.term(f);
      d.filters.add("(" + term.filter() + ")");
      d.used.addAll(f.item().tables());
      d.understood.add("filter: " + term.term() + " = " + term.filter());
    }
    timeWindow(d, now);
  }

  /** One equality (or IN) per column of linked values; the relation's anchor filters its own. */
  private void values(PlanDraft d) {
    PlanDraft.Anchored related = d.related;
    Map<String, List<String>> valuesByColumn = new LinkedHashMap<>();
    for (ValueMatch v : d.found.values()) {
      if (related != null && v == related.anchor()) {
        d.filters.add(related.term().relation().anchor() + " = " + SqlWriter.text(v.value()));
        d.used.add(related.table());
        d.used.add(related.entity());
        d.understood.add(
            related.term().term() + ": rows of " + related.entity() + " related to " + v.value());
        continue;
      }
      valuesByColumn.computeIfAbsent(v.column(), k -> new ArrayList<>()).add(v.value());
    }
    valuesByColumn.forEach(
        (column, values) -> {
          d.filters.add(
              values.size() == 1
                  ? column + " = " + SqlWriter.text(values.get(0))
                  : column
                      + " IN ("
                      + String.join(", ", values.stream().map(SqlWriter::text).toList())
                      + ")");
          d.filtered.add(column.toLowerCase(Locale.ROOT));
          d.used.add(Ontology.tableOf(column));
          d.understood.add("filter: " + column + " in " + values);
        });
  }

  /** The window the question says ("last month"), on the measure's or a used table's time. */
  private void timeWindow(PlanDraft d, ZonedDateTime now) {
    TimeWindows.Window window = TimeWindows.find(d.q, now);
    d.window = window;
    if (window == null) {
      return;
    }
    String time = grounding.timeColumn(d.metrics, d.used);
    if (time == null) {
      throw new NotUnderstood(
          "'" + window.said() + "': no time column to filter on among " + d.used);
    }
    d.filters.add(time + " >= " + writer.timestamp(window.start()));
    d.filters.add(time + " < " + writer.timestamp(window.end()));
    d.used.add(Ontology.tableOf(time));
    d.understood.add(
        "time: '" + window.said() + "' = [" + window.start() + ", " + window.end() + ")");
  }
}
