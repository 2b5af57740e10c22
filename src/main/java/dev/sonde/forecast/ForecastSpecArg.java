package dev.sonde.forecast;

import static io.vertx.json.schema.common.dsl.Keywords.minLength;
import static io.vertx.json.schema.common.dsl.Keywords.minimum;
import static io.vertx.json.schema.common.dsl.Schemas.intSchema;
import static io.vertx.json.schema.common.dsl.Schemas.stringSchema;

import dev.sonde.tools.Arg;
import dev.sonde.tools.SeriesSpecArgs;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The forecast spec of forecast_table as a schema: every field {@link TableForecasts} reads, with
 * the bounds it enforces, and nothing else. The method stays a described string: the engine reads
 * it in any case, with aliases and ranks ("2위", "rank2") that no enum lists. A saved forecast chart
 * reaches the engine without this schema, so the engine keeps its own checks.
 */
final class ForecastSpecArg {
  private static final String ALIASES =
      TableForecasts.ALIASES.entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .map(alias -> alias.getKey() + " (" + alias.getValue() + ")")
          .collect(Collectors.joining(", "));

  static final Arg<JsonObject> SPEC =
      Arg.object(
              "spec",
              "The forecast: a tag table and its tags, and optionally the period trained on, the"
                  + " unit, the horizon, the method and the report's titles",
              Arg.string("table", "The tag table, e.g. GOLD", minLength(1)).required(),
              Arg.string("tag", "The tag to forecast; omitted with tags too: the busiest tag"),
              Arg.of(
                  "tags",
                  "Tags compared (2-5; more: the 5 with the most data), forecast with one horizon",
                  SeriesSpecArgs::oneOrMany),
              Arg.of(
                  "rollup",
                  "The bucket unit: "
                      + SeriesSpecArgs.UNITS
                      + ", or a phrase with a multiple such as 5min, 1분 평균; null or omitted:"
                      + " chosen from the period",
                  () -> stringSchema().nullable()),
              SeriesSpecArgs.ROLLUP_N,
              SeriesSpecArgs.timeRange(
                  "The period trained on; omitted: all the data, at most the last 5,000 buckets"),
              Arg.integer(
                  "horizon",
                  "Buckets ahead, the same for every tag; omitted: 20% of the first tag's"
                      + " training length",
                  1,
                  TableForecasts.MAX_HORIZON),
              Arg.string(
                  "method",
                  "auto (the default: a combination of Theta, damped trend and the median of the"
                      + " backtest's top 5), or one model: "
                      + String.join(", ", Forecaster.methods())
                      + "; aliases "
                      + ALIASES
                      + "; or a leaderboard rank: rank2, rank #2, 2nd, 2위. Any case"),
              Arg.of(
                  "rank",
                  "The model at this leaderboard position, 1 the first",
                  () -> intSchema().with(minimum(1))),
              Arg.of(
                  "lookback",
                  "Train on the last N buckets only",
                  () -> intSchema().with(minimum(1))),
              Arg.object(
                  "output",
                  "The report's titles",
                  Arg.string("title", "The title; default: Forecast of the tags in the table"),
                  Arg.string(
                      "subtitle",
                      "The subtitle; default: the horizon, the unit and how models are ranked")))
          .required();

  private ForecastSpecArg() {}
}
