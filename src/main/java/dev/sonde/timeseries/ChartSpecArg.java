package dev.sonde.timeseries;

import static io.vertx.json.schema.common.dsl.Keywords.minLength;
import static io.vertx.json.schema.common.dsl.Schemas.anyOf;
import static io.vertx.json.schema.common.dsl.Schemas.arraySchema;
import static io.vertx.json.schema.common.dsl.Schemas.objectSchema;
import static io.vertx.json.schema.common.dsl.Schemas.stringSchema;

import dev.sonde.tools.Arg;
import dev.sonde.tools.SeriesSpecArgs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.common.dsl.SchemaBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The chart spec of compile_chart_from_spec as a schema: every field {@link Charts} reads, with the
 * enums and bounds it enforces, and nothing else. Free text the engine parses itself (a rollup
 * phrase, a time) stays a described string; so does output.chartType, which Charts never refuses.
 * Kinds and aggregates are listed as Charts names them; it also reads them in any case, for the
 * saved charts and dashboard panels that reach it without this schema.
 */
final class ChartSpecArg {

  private static final List<String> KINDS =
      Arrays.stream(ChartKind.values()).map(k -> k.name().toLowerCase(Locale.ROOT)).toList();

  static final Arg<JsonObject> SPEC =
      Arg.object(
              "spec",
              "The chart: a tag table and its tags, and optionally the kind, period, unit,"
                  + " aggregates and titles",
              Arg.oneOf(
                  "kind",
                  "metrics: one tag, one or more aggregates (the default for one tag); tags:"
                      + " several tags compared (the default for several); ohlc: candlesticks"
                      + " of one tag; geomap: two tags, latitude then longitude",
                  KINDS),
              Arg.string("table", "The tag table, e.g. EXAMPLE", minLength(1)).required(),
              Arg.of("tag", "The tag, e.g. temperature (or several)", SeriesSpecArgs::oneOrMany),
              Arg.of(
                  "tags",
                  "The tags compared; a geomap takes latitude then longitude",
                  SeriesSpecArgs::oneOrMany),
              SeriesSpecArgs.timeRange(
                  "The period; omitted: the data up to its last time, as much as the unit draws"),
              Arg.of(
                  "rollup",
                  "The bucket unit: "
                      + SeriesSpecArgs.UNITS
                      + ", or a phrase with a multiple such as 5min, 10s, 1-minute average,"
                      + " 1분 평균, 每小时; null draws the raw values; omitted: chosen from the"
                      + " period",
                  () -> stringSchema().nullable()),
              SeriesSpecArgs.ROLLUP_N,
              Arg.of(
                  "metrics",
                  "The aggregates drawn, each {agg, label} or just the agg; default avg; raw"
                      + " (the values themselves) is drawn alone; kinds other than metrics draw"
                      + " the first",
                  () -> arraySchema().items(anyOf(aggregate(), metric()))),
              Arg.object(
                  "output",
                  "How it is drawn",
                  Arg.string("chartType", "line or bar").orElse("line"),
                  Arg.string("title", "The title; the unit applied is appended (· 5 min)"),
                  Arg.string("subtitle", "The subtitle; default the table and the period")),
              Arg.string(
                  "question",
                  "Words the unit is read from when rollup is omitted, e.g. hourly average"))
          .required();

  private ChartSpecArg() {}

  private static SchemaBuilder<?, ?> aggregate() {
    return stringSchema().withKeyword("enum", new JsonArray(ChartSpec.AGGREGATES));
  }

  private static SchemaBuilder<?, ?> metric() {
    return objectSchema()
        .optionalProperty("agg", aggregate().defaultValue("avg"))
        .optionalProperty("label", stringSchema().withKeyword("description", "default the agg"))
        .allowAdditionalProperties(false);
  }
}
