package dev.sonde.timeseries;

import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import dev.sonde.tools.SeriesSpecArgs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A chart spec read and checked against its table's tags: what it shows, of which tags, with which
 * aggregates. {@code json} is the spec as given, kept so a saved chart compiles it again.
 */
record ChartSpec(JsonObject json, ChartKind kind, List<String> tags, List<Metric> metrics) {
  /** The aggregates a chart draws: the engine's list, which ChartSpecArg publishes. */
  static final List<String> AGGREGATES =
      List.of("avg", "max", "min", "sum", "count", "sumsq", "raw");

  /** One aggregate of the value column, and the name of its series. */
  record Metric(String agg, String label) {}

  /** The tag table a spec names, or a refusal saying it must name one. */
  static String table(JsonObject json) {
    String table = json.getString("table");
    if (table == null || table.isBlank()) {
      throw new CallerException("spec.table is required: the tag table, e.g. EXAMPLE");
    }
    return table;
  }

  /** Reads {@code json}, whose tags must be among {@code known}: the table's tags. */
  static ChartSpec read(JsonObject json, List<String> known) {
    List<String> tags = tagsOf(json, known);
    ChartKind kind = kindOf(json, tags);
    return new ChartSpec(json, kind, tags, metricsOf(json, kind));
  }

  /** The same spec drawing raw values: one series per tag. */
  ChartSpec asRaw() {
    return new ChartSpec(
        json,
        kind == ChartKind.METRICS ? ChartKind.TAGS : kind,
        tags,
        List.of(new Metric("raw", "raw")));
  }

  /** Does the spec ask for raw values, by a raw metric or by {@code rollup: null}? */
  boolean raw() {
    return metrics.get(0).agg().equals("raw")
        || (json.containsKey("rollup") && json.getValue("rollup") == null);
  }

  /** {@code timeRange.start} or {@code timeRange.end}, or null when not given. */
  Long time(String field, ZoneId zone, long[] bounds) {
    JsonObject range = json.getJsonObject("timeRange", new JsonObject());
    return TimeArg.parse(range.getValue(field), "timeRange." + field, zone, bounds[0], bounds[1]);
  }

  /** How the chart is drawn: chartType, title, subtitle. */
  JsonObject output() {
    return json.getJsonObject("output", new JsonObject());
  }

  /** The bucket unit asked for by {@code rollup} and {@code rollupN}, or by the question. */
  UnitPhrase unit() {
    Object rollup = json.getValue("rollup");
    UnitPhrase unit = null;
    if (rollup instanceof String s && !s.isBlank()) {
      unit = UnitPhrase.parse(s);
      if (unit == null) {
        throw new CallerException(
            "rollup "
                + Quote.of(s)
                + " is not a unit: use sec, min, hour, day, week or month, optionally with a multiple (\"5min\", \"10s\")");
      }
    } else if (json.getString("question") != null) {
      unit = UnitPhrase.parse(json.getString("question"));
    }
    Integer n = json.getInteger("rollupN");
    if (unit != null && n != null) {
      if (n < 1) {
        throw new CallerException("rollupN must be 1 or more");
      }
      unit = new UnitPhrase(unit.unit(), n);
    }
    if (unit != null && unit.unit().calendar() && unit.multiple() != 1) {
      throw new CallerException(
          "day, week and month buckets take no multiple (rollupN 1); use a coarser unit instead of "
              + unit.label());
    }
    return unit;
  }

  private static List<String> tagsOf(JsonObject json, List<String> known) {
    List<String> tags = SeriesSpecArgs.tagsNamed(json);
    if (tags.isEmpty()) {
      throw new CallerException(
          "spec.tag (or spec.tags) is required; this table's tags include "
              + known.stream().limit(10).toList());
    }
    for (String tag : tags) {
      if (!known.contains(tag)) {
        throw new CallerException(
            "unknown tag "
                + Quote.of(tag)
                + "; the closest tags are "
                + TagTables.closest(tag, known, 5)
                + " (list_table_tags lists them all)");
      }
    }
    return tags;
  }

  private static ChartKind kindOf(JsonObject json, List<String> tags) {
    String named = json.getString("kind");
    ChartKind kind =
        named == null
            ? (tags.size() > 1 ? ChartKind.TAGS : ChartKind.METRICS)
            : ChartKind.of(named);
    if ((kind == ChartKind.METRICS || kind == ChartKind.OHLC) && tags.size() != 1) {
      throw new CallerException(
          "a "
              + kind.name().toLowerCase(Locale.ROOT)
              + " chart shows one tag; use kind tags to compare "
              + tags);
    }
    if (kind == ChartKind.GEOMAP && tags.size() != 2) {
      throw new CallerException(
          "a geomap takes two tags, latitude then longitude: tags: [\"lat\", \"lon\"]");
    }
    return kind;
  }

  private static List<Metric> metricsOf(JsonObject json, ChartKind kind) {
    List<Metric> out = new ArrayList<>();
    JsonArray given = json.getJsonArray("metrics");
    if (given != null) {
      for (Object o : given) {
        JsonObject m =
            o instanceof JsonObject j ? j : new JsonObject().put("agg", String.valueOf(o));
        String agg = m.getString("agg", "avg").toLowerCase(Locale.ROOT);
        if (!AGGREGATES.contains(agg)) {
          throw new CallerException(
              "metrics agg " + Quote.of(agg) + " is not one of " + AGGREGATES);
        }
        out.add(new Metric(agg, m.getString("label", agg)));
      }
    }
    if (out.isEmpty()) {
      out.add(new Metric("avg", "avg"));
    }
    if (kind != ChartKind.METRICS && out.size() > 1) {
      out = List.of(out.get(0));
    }
    if (out.stream().anyMatch(m -> m.agg().equals("raw")) && out.size() > 1) {
      throw new CallerException("raw values cannot be drawn beside aggregates; ask for raw alone");
    }
    return out;
  }
}
