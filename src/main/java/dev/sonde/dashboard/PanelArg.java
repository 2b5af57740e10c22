package dev.sonde.dashboard;

import static io.vertx.json.schema.common.dsl.Keywords.maxLength;
import static io.vertx.json.schema.common.dsl.Schemas.anyOf;
import static io.vertx.json.schema.common.dsl.Schemas.arraySchema;
import static io.vertx.json.schema.common.dsl.Schemas.objectSchema;
import static io.vertx.json.schema.common.dsl.Schemas.stringSchema;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.SeriesSpecArgs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.common.dsl.SchemaBuilder;

/**
 * A dashboard panel as the dashboard tools take it: every field {@link Dashboards} reads from a
 * panel entry, and nothing else. The type lists the engine's {@link Dashboards#TYPES} as it names
 * them. Rollups and aggregates stay described: the time-series family reads them, as it reads a
 * chart spec's.
 */
final class PanelArg {
  private static final String SHAPES =
      "a saved chart ({title, chart_path}) or an inline one ({title, type, table, tag}, or"
          + " {title, type: Text, text})";

  private static final Arg<?>[] FIELDS = {
    Arg.string("title", "The panel's title; default: the chart's path, or the tag"),
    Arg.string(
        "chart_path",
        "A saved chart in your workspace, e.g. EXAMPLE/t.chart.json (compile_chart_from_spec or"
            + " forecast_table with filename saves one)"),
    Arg.string("tql_path", "chart_path under the reference toolset's name"),
    Arg.oneOf(
        "type",
        "How it draws: Pie compares its tags, Geomap takes latitude then longitude, Candlestick"
            + " one tag, Text shows its text; default Chart for a saved chart, else Line",
        Dashboards.TYPES),
    Arg.string("table", "An inline panel's tag table, e.g. DRIVING"),
    Arg.of("tag", "An inline panel's tag, or several", SeriesSpecArgs::oneOrMany),
    Arg.of("tags", "An inline panel's tags, when tag is omitted", SeriesSpecArgs::oneOrMany),
    Arg.of(
        "rollup",
        "The bucket unit, or a phrase such as 5min (as in compile_chart_from_spec); null or"
            + " omitted: chosen from the period",
        () -> stringSchema().nullable()),
    Arg.of(
        "metrics",
        "The aggregates drawn, each {agg, label} or just the agg, as in"
            + " compile_chart_from_spec; default avg",
        () -> arraySchema().items(anyOf(stringSchema(), metric()))),
    Arg.string("text", "A Text panel's text", maxLength(Schemas.TEXT_LENGTH)),
    Arg.of("options", "Kept with the panel as given", () -> objectSchema()),
    Arg.string("connection", "An inline panel's connection; default the dashboard's")
  };

  /** One panel, for the tools that add one. */
  static final Arg<JsonObject> CHART =
      Arg.object("chart", "The panel: " + SHAPES, FIELDS).required();

  /** The panels of a new dashboard. */
  static final Arg<JsonArray> CHARTS =
      Arg.objects("charts", "The panels, each " + SHAPES, FIELDS).required();

  private PanelArg() {}

  private static SchemaBuilder<?, ?> metric() {
    return objectSchema()
        .optionalProperty("agg", stringSchema().defaultValue("avg"))
        .optionalProperty("label", stringSchema().withKeyword("description", "default the agg"))
        .allowAdditionalProperties(false);
  }
}
